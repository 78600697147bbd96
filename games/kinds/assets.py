"""How Django finds a room's own files: its ``static/`` is served as ``games/<kind>/...`` and
its ``templates/`` joins the template search path. Both ask the registry each time, so a
game registered later (a test's toy game) is found too. Named once in settings."""
from __future__ import annotations

from django.contrib.staticfiles.finders import FileSystemFinder
from django.contrib.staticfiles.utils import get_files
from django.core.files.storage import FileSystemStorage
from django.template.loaders.filesystem import Loader

from games import registry


def _room_dirs(sub: str) -> list[tuple[str, str]]:
    return [(room.kind, str(room.folder / sub)) for room in registry.rooms()
            if room.folder is not None and (room.folder / sub).is_dir()]


class RoomStaticFinder(FileSystemFinder):
    """Every room's ``static/`` folder, under the prefix ``games/<kind>``."""

    def __init__(self, app_names=None, *args, **kwargs):  # noqa: D107 - STATICFILES_DIRS is not ours
        self.storages = {}

    @property
    def locations(self):
        return [(f"games/{kind}", root) for kind, root in _room_dirs("static")]

    def list(self, ignore_patterns):
        for prefix, root in self.locations:
            storage = self._storage(prefix, root)
            for path in get_files(storage, ignore_patterns):
                yield path, storage

    def _storage(self, prefix, root):
        if root not in self.storages:
            storage = FileSystemStorage(location=root)
            storage.prefix = prefix
            self.storages[root] = storage
        return self.storages[root]

    def check(self, **kwargs):
        return []


class RoomTemplateLoader(Loader):
    """Every room's ``templates/`` folder (a room names its templates ``<kind>/...``)."""

    def get_dirs(self):
        return [root for _, root in _room_dirs("templates")]
