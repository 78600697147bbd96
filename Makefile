# Two commands matter: `make run` (the site on embedded defaults) and `make test` (the whole suite).
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
# Every version a fresh machine installs is the one that was tested (`make lock` refreshes it).
LOCK := requirements.lock

# Tests always run on the real services of this machine; override to point elsewhere.
TEST_DATABASE_URL ?= postgres://postgres@127.0.0.1:5432/grailsite
TEST_REDIS_URL ?= redis://127.0.0.1:6379/0

.PHONY: run test deep venv services browser prod-packages prod prod-stop backup restore restore-check bench faults lock deploy-check clean

$(STAMP): pyproject.toml $(LOCK)
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -c $(LOCK) -e '.[test]'
	touch $(STAMP)

venv: $(STAMP)

run: $(STAMP)
	$(PY) manage.py migrate --noinput
	$(PY) manage.py load_demo
	$(PY) manage.py ratings_recompute --write
	$(PY) manage.py vapid_keys --ensure
	$(PY) manage.py runsite 127.0.0.1:8000

services:
	bash tests/ensure_services.sh

browser:
	bash tests/ensure_browser.sh

prod-packages:
	bash grailsite/deploy/ensure_packages.sh

# The production shape of docker-compose.yml as processes of this machine (grailsite/deploy/prod.py):
# nginx in front of two web processes, two Celery workers and beat, under supervisord, on the
# PostgreSQL and Redis that PROD_DATABASE_URL and PROD_REDIS_URL(S) name (prod.py checks those,
# not the machine's defaults).
#   SECRET_KEY=$$(python3 -c 'import secrets; print(secrets.token_urlsafe(50))') make prod
prod: $(STAMP) prod-packages
	$(PY) grailsite/deploy/prod.py start

prod-stop:
	$(PY) grailsite/deploy/prod.py stop

# make prod's database (pg_dump custom format) and media into backups/<time>/ (grailsite/deploy/backup.py);
# make restore BACKUP=backups/<time> [TARGET=postgres://.../fresh_db]: into a database that does not exist yet.
backup: $(STAMP)
	$(PY) grailsite/deploy/backup.py backup

restore: $(STAMP)
	$(PY) grailsite/deploy/backup.py restore $(BACKUP) $(if $(TARGET),--database-url $(TARGET))

# make restore-check TARGET=postgres://.../restored_db: migrate, replay_check and ledger_check there,
# with no Redis (nothing reaches the live site's).
restore-check: $(STAMP)
	$(PY) grailsite/deploy/backup.py check --database-url $(TARGET)

# The suite over TEST_WORKERS pytest-xdist processes, each on services of its own (tests/run_suite.sh).
test: $(STAMP) services browser prod-packages
	DATABASE_URL=$(TEST_DATABASE_URL) REDIS_URL=$(TEST_REDIS_URL) bash tests/run_suite.sh $(PY)

# The rules' random playouts at the long run's counts (thousands of games a kind, tens of
# minutes on two cores); `make test` plays a few hundred of each.
deep: $(STAMP)
	CUPQUEST_PLAYOUTS=5000 CAMELOT_PLAYOUTS=2000 FLUXX_PLAYOUTS=5000 CCG_PLAYOUTS=1000 COMPUTER_PLAYOUTS=400 \
		$(PY) -m pytest tests/rules -n 2 --timeout=0 -q -k "playout or random or seeded"

bench: $(STAMP) services
	DATABASE_URL=$(TEST_DATABASE_URL) REDIS_URL=$(TEST_REDIS_URL) $(PY) bench/run_all.py

# The slow fault scenarios (private Redis and web processes; figures for docs/reliability.md).
faults: $(STAMP) services
	DATABASE_URL=$(TEST_DATABASE_URL) $(PY) bench/faults.py

# The production settings pass Django's deployment checks with no warning.
deploy-check: $(STAMP)
	GRAILSITE_PRODUCTION=1 SECRET_KEY=$$($(PY) -c 'import secrets; print(secrets.token_urlsafe(50))') \
		ALLOWED_HOSTS=grail.example.org CSRF_TRUSTED_ORIGINS=https://grail.example.org \
		$(PY) manage.py check --deploy --fail-level WARNING

# Re-pin after changing pyproject.toml: installs the newest allowed versions, then freezes.
lock:
	$(PY) -m pip install --quiet --upgrade -e '.[test]'
	$(PY) -m pip freeze --exclude-editable | grep -v '^grailsite' > $(LOCK)

clean:
	rm -rf $(VENV) db.sqlite3 staticfiles
