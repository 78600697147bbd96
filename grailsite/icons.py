"""The site's icon, drawn here in code (a gold grail on the site's ink, the colours of the
header), so every PNG size an installed app asks for is made from one drawing: on first
request, then kept in memory (``png``). No image files to keep in step with each other.

The drawing is made on a 1000-unit square and scaled; it is drawn four times larger than
asked and shrunk, which smooths its edges (Pillow's shapes are not antialiased)."""
from __future__ import annotations

import io
from functools import lru_cache

from PIL import Image, ImageDraw

INK = (43, 33, 24)        # --ink in static/css/site.css: the header, the app's theme colour
PAPER = (247, 241, 227)   # --paper: the page, the splash screen's background
GOLD = (201, 162, 39)     # --gold: the brand's name
SHINE = (236, 208, 110)
# Sizes a manifest or a page names (Android's 192 and 512, Apple's 180, the favicon's 32).
SIZES = (32, 180, 192, 512)
SUPERSAMPLE = 4


def _grail(draw: ImageDraw.ImageDraw, k: float, ox: float, oy: float) -> None:
    """The cup, stem and foot, in units of a 1000-wide square scaled by ``k`` from (ox, oy)."""
    def pt(x, y):
        return (ox + x * k, oy + y * k)

    # The bowl: a wide half-ellipse under a rim.
    draw.pieslice([pt(250, 80), pt(750, 560)], 0, 180, fill=GOLD)
    draw.rectangle([pt(250, 300), pt(750, 322)], fill=GOLD)
    draw.rounded_rectangle([pt(225, 270), pt(775, 320)], radius=20 * k, fill=SHINE)
    # A glint on the bowl.
    draw.pieslice([pt(320, 200), pt(440, 480)], 90, 180, fill=SHINE)
    # The knot and stem.
    draw.polygon([pt(470, 555), pt(530, 555), pt(520, 700), pt(480, 700)], fill=GOLD)
    draw.ellipse([pt(440, 590), pt(560, 650)], fill=SHINE)
    # The foot.
    draw.polygon([pt(480, 700), pt(520, 700), pt(640, 800), pt(360, 800)], fill=GOLD)
    draw.rounded_rectangle([pt(330, 790), pt(670, 840)], radius=18 * k, fill=GOLD)
    # A cross on the bowl, for the Grail.
    draw.rectangle([pt(488, 350), pt(512, 470)], fill=INK)
    draw.rectangle([pt(450, 385), pt(550, 409)], fill=INK)


def draw(size: int, *, maskable: bool = False) -> Image.Image:
    """The icon at ``size`` pixels. ``maskable``: a full-bleed square with the grail inside the
    central safe zone (80% of the width), for launchers that cut their own shape out of it."""
    big = size * SUPERSAMPLE
    image = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    pen = ImageDraw.Draw(image)
    if maskable:
        pen.rectangle([0, 0, big, big], fill=INK)
        scale, offset = 0.62, 0.19
    else:
        pen.rounded_rectangle([0, 0, big - 1, big - 1], radius=big * 0.18, fill=INK)
        scale, offset = 0.86, 0.07
    k = big * scale / 1000
    _grail(pen, k, big * offset, big * offset)
    return image.resize((size, size), Image.LANCZOS)


@lru_cache(maxsize=16)
def png(size: int, maskable: bool = False) -> bytes:
    """The icon as PNG bytes, made once per process and size."""
    if size not in SIZES:
        raise ValueError(f"no icon of {size} pixels")
    out = io.BytesIO()
    draw(size, maskable=maskable).save(out, format="PNG", optimize=True)
    return out.getvalue()
