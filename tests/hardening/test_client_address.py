"""Per-address limits count the address a request really came from: X-Forwarded-For is
believed only from TRUSTED_PROXIES, walked from the right (grailsite/client_address.py).

Three levels: the function itself (a request and an ASGI scope), the site through Django's
test client (REMOTE_ADDR + X-Forwarded-For, as a proxy would send them), and a real uvicorn
started with the command line docker-compose.yml gives the web service."""
import os
import socket
import subprocess
import sys
import time
import uuid
from pathlib import Path

import httpx
import pytest
import yaml
from django.test import RequestFactory

from grailsite.client_address import client_address, resolve

ROOT = Path(__file__).resolve().parents[2]
PROXY = "172.30.80.10"  # compose's proxy address (docker-compose.yml)


def address() -> str:
    n = uuid.uuid4().int
    return f"10.{n % 250}.{(n >> 8) % 250}.{(n >> 16) % 250 + 1}"


# -- the function ---------------------------------------------------------------------------

@pytest.mark.parametrize("peer, forwarded, proxies, expected", [
    # Nobody trusted (the default): the header is never read.
    ("203.0.113.5", "1.2.3.4", [], "203.0.113.5"),
    # From the proxy: the right-most entry, whatever the client put before it.
    (PROXY, "1.2.3.4, 203.0.113.5", [PROXY], "203.0.113.5"),
    # Not from the proxy: the header is the client's own words.
    ("203.0.113.5", "1.2.3.4, " + PROXY, [PROXY], "203.0.113.5"),
    # A load balancer in front of the proxy, trusted too: one more step left.
    (PROXY, "1.2.3.4, 203.0.113.5, 198.51.100.1", [PROXY, "198.51.100.0/24"], "203.0.113.5"),
    # Garbage where the client wrote: counted as the last hop we can vouch for.
    (PROXY, "1.2.3.4, not-an-address", [PROXY], PROXY),
    # Every hop trusted: the left-most (a proxy of ours asked itself).
    (PROXY, PROXY, [PROXY], PROXY),
    # Ports, brackets, IPv4-mapped IPv6, canonical IPv6.
    ("[::ffff:172.30.80.10]:5000", "203.0.113.5:1234", [PROXY], "203.0.113.5"),
    (PROXY, "[2001:DB8::0001]:443", [PROXY], "2001:db8::1"),
    # No peer (a unix socket): nothing to count by.
    (None, "1.2.3.4", [PROXY], None),
])
def test_the_client_is_the_right_most_address_not_a_trusted_proxy(peer, forwarded, proxies, expected):
    assert resolve(peer, forwarded, proxies) == expected


def test_a_request_and_an_asgi_scope_give_the_same_address(settings):
    settings.TRUSTED_PROXIES = [PROXY]
    request = RequestFactory().get("/", REMOTE_ADDR=PROXY, HTTP_X_FORWARDED_FOR="1.2.3.4, 203.0.113.5")
    # A socket's scope; the header in two lines, as a chain of proxies may send it.
    scope = {"type": "websocket", "client": (PROXY, 40000),
             "headers": [(b"x-forwarded-for", b"1.2.3.4"), (b"host", b"x"), (b"x-forwarded-for", b"203.0.113.5")]}
    assert client_address(request) == client_address(scope) == "203.0.113.5"
    assert client_address({"type": "websocket", "client": None, "headers": []}) is None


# -- the site, through Django's test client -------------------------------------------------

def wrong_passwords(client, n, *, via=None, real=None, spoof=True):
    """``n`` wrong log-ins; each with a new made-up X-Forwarded-For entry, then (``real``)
    the entry a proxy appends; from ``via`` (the proxy) or ``real`` itself."""
    codes = []
    for _ in range(n):
        chain = ", ".join(filter(None, [address() if spoof else None, real if via else None]))
        extra = {"HTTP_X_FORWARDED_FOR": chain} if chain else {}
        codes.append(client.post("/accounts/login/", {"username": "nobody", "password": "wrong"},
                                 REMOTE_ADDR=via or real, **extra).status_code)
    return codes


@pytest.mark.django_db
def test_made_up_forwarded_addresses_do_not_escape_the_log_in_limit(client, settings):
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "login": {"ip": "3/m"}}
    settings.TRUSTED_PROXIES = [PROXY]
    # Straight to the site: the header is ignored, the peer is counted.
    assert wrong_passwords(client, 5, real=address()).count(429) == 2
    # Through the proxy: the client's own entries are skipped, the proxy's is counted.
    assert wrong_passwords(client, 5, via=PROXY, real=address()).count(429) == 2


@pytest.mark.django_db
def test_clients_behind_the_proxy_are_counted_apart(client, settings):
    """Before: every request through the proxy counted against the proxy's one address."""
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "login": {"ip": "3/m"}}
    settings.TRUSTED_PROXIES = [PROXY]
    for _ in range(3):
        assert wrong_passwords(client, 3, via=PROXY, real=address(), spoof=False) == [200, 200, 200]


@pytest.mark.django_db
def test_sign_ups_from_one_machine_are_limited_whatever_it_forwards(client, settings):
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "signup": {"ip": "2/h"}}
    settings.TRUSTED_PROXIES = [PROXY]
    real = address()
    codes = [client.post("/accounts/signup/", {"username": f"k{uuid.uuid4().hex[:8]}"}, REMOTE_ADDR=PROXY,
                         HTTP_X_FORWARDED_FOR=f"{address()}, {real}").status_code for _ in range(4)]
    assert codes == [200, 200, 429, 429]


# -- a real uvicorn, started as compose starts it --------------------------------------------

def compose_web_command(port: int) -> tuple[list[str], dict]:
    """The web service's command from docker-compose.yml (grailsite/deploy/web.sh, which
    `make prod` runs too) and the environment that puts it on a local port, with this venv's
    uvicorn."""
    command = yaml.safe_load((ROOT / "docker-compose.yml").read_text())["services"]["web"]["command"]
    assert command == ["grailsite/deploy/web.sh"]
    return [str(ROOT / command[0])], {"HOST": "127.0.0.1", "PORT": str(port),
                                      "PATH": f"{Path(sys.executable).parent}:{os.environ.get('PATH', '')}"}


@pytest.fixture(scope="module")
def compose_web(django_db_setup, tmp_path_factory):
    """uvicorn with compose's flags on the test database; 127.0.0.1 plays the proxy (the
    TRUSTED_PROXIES compose sets is its fixed address), other loopback addresses clients."""
    from tests.browser_fixtures import _database_url, _free_port
    from django.conf import settings

    port = _free_port()
    env = dict(os.environ, DATABASE_URL=_database_url(), DJANGO_SETTINGS_MODULE="tests.live_settings",
               GRAILSITE_CHANNEL_PREFIX=settings.CHANNEL_PREFIX, ALLOWED_HOSTS="127.0.0.1",
               TRUSTED_PROXIES="127.0.0.1", RATE_LOGIN_IP="5/m", RATE_SIGNUP_IP="3/h")
    env.pop("GRAILSITE_TEST_DB", None)
    log = tmp_path_factory.mktemp("uvicorn") / "uvicorn.log"
    command, where = compose_web_command(port)
    proc = subprocess.Popen(command, cwd=ROOT, env={**env, **where}, stdout=log.open("w"),
                            stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 30
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
            break
        except OSError:
            assert proc.poll() is None and time.monotonic() < deadline, log.read_text()[-2000:]
            time.sleep(0.2)
    yield f"http://127.0.0.1:{port}"
    proc.terminate()
    proc.wait(timeout=10)


def loopback() -> str:
    n = uuid.uuid4().int
    return f"127.{n % 250 + 1}.{(n >> 8) % 250}.{(n >> 16) % 250 + 1}"


def post_forms(base: str, path: str, n: int, *, source: str, forwarded, form=None) -> list[int]:
    """``n`` posts of ``form()`` to ``path`` from the local address ``source``, each with the
    X-Forwarded-For ``forwarded()`` returns (a new one each time)."""
    form = form or (lambda: {"username": "nobody", "password": "wrong"})
    with httpx.Client(base_url=base, transport=httpx.HTTPTransport(local_address=source), timeout=10) as c:
        c.get(path)
        token = c.cookies["csrftoken"]
        return [c.post(path, data={**form(), "csrfmiddlewaretoken": token},
                       headers={"X-Forwarded-For": forwarded()}).status_code for _ in range(n)]


@pytest.mark.django_db
def test_uvicorn_as_compose_starts_it_counts_the_real_client(compose_web):
    login = "/accounts/login/"
    # A client straight at the web process, making up a new address each time: one address.
    direct = post_forms(compose_web, login, 8, source=loopback(), forwarded=address)
    assert direct.count(429) == 3, direct
    # Through the proxy (what nginx's $proxy_add_x_forwarded_for sends): the client's
    # made-up entries, then the address the proxy saw, which is what is counted.
    real = address()
    proxied = post_forms(compose_web, login, 8, source="127.0.0.1", forwarded=lambda: f"{address()}, {real}")
    assert proxied.count(429) == 3, proxied
    # Another client through the same proxy has an allowance of its own.
    other = address()
    assert post_forms(compose_web, login, 2, source="127.0.0.1", forwarded=lambda: other) == [200, 200]


@pytest.mark.django_db
def test_uvicorn_as_compose_starts_it_limits_sign_ups_from_one_machine(compose_web):
    def form():
        return {"username": f"k{uuid.uuid4().hex[:8]}"}  # refused (no password): still counted

    codes = post_forms(compose_web, "/accounts/signup/", 6, source=loopback(), forwarded=address, form=form)
    assert codes == [200] * 3 + [429] * 3


# -- the deployment files agree ---------------------------------------------------------------

def test_compose_trusts_the_proxy_s_fixed_address_and_nothing_else_reads_the_header():
    compose = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    proxy_address = compose["services"]["proxy"]["networks"]["default"]["ipv4_address"]
    trusted = compose["x-app"]["environment"]["TRUSTED_PROXIES"]
    assert trusted == f"${{TRUSTED_PROXIES:-{proxy_address}}}"
    # uvicorn's handling is off where the image, compose or `make prod` starts it (with "*"
    # it believed the client's left-most entry): all three run grailsite/deploy/web.sh.
    web_sh = (ROOT / "grailsite/deploy/web.sh").read_text()
    assert "--no-proxy-headers" in web_sh and "forwarded-allow-ips" not in web_sh
    assert compose["services"]["web"]["command"] == ["grailsite/deploy/web.sh"]
    cmd = next(line for line in (ROOT / "Dockerfile").read_text().splitlines() if line.startswith("CMD"))
    assert cmd == 'CMD ["grailsite/deploy/web.sh"]'
    assert "$proxy_add_x_forwarded_for" in (ROOT / "grailsite/deploy/nginx.conf.template").read_text()


def test_a_trusted_proxy_that_is_not_an_address_stops_the_start():
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GRAILSITE_", "DJANGO_"))}
    result = subprocess.run([sys.executable, "manage.py", "check"], cwd=ROOT, capture_output=True, text=True,
                            env={**env, "TRUSTED_PROXIES": "172.30.80.10,proxy"}, timeout=120)
    assert result.returncode != 0 and "TRUSTED_PROXIES: 'proxy'" in result.stderr
