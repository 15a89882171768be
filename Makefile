# Scorekeeper. Two commands on a fresh Debian 12 machine (as root): `make run` and `make test`.
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
APT_GET := DEBIAN_FRONTEND=noninteractive apt-get

.PHONY: run test test-only lint bench loadtest loadtest-compare messages clean

run: $(VENV)/.installed-run
	DEBUG=1 $(BIN)/python manage.py migrate --noinput
	DEBUG=1 $(BIN)/python manage.py runserver 127.0.0.1:8000

# nginx and redis-server: the tests of several app servers behind nginx and of Redis stopped
# mid-evening start their own on loopback (never the distribution's services).
test: $(VENV)/.installed-test /usr/bin/chromium /usr/sbin/nginx /usr/bin/redis-server
	$(MAKE) --no-print-directory test-only

# The suite alone, with what is already installed (.ci/run uses it for the PostgreSQL pass);
# PYTEST_ARGS chooses tests (for example PYTEST_ARGS="-m 'not e2e'").
# pytest-xdist: a worker per core (at most 8: each has a browser, a test database and, in the
# PostgreSQL pass, a Redis database of its own, tests/settings.py). Its default scheduling hands
# each worker the next tests in pytest-django's order (the database tests before those that
# empty the database), one batch at a time as it finishes.
test-only:
	$(BIN)/ruff check .
	$(BIN)/lint-imports
	DJANGO_SETTINGS_MODULE=tests.settings $(BIN)/python manage.py makemigrations --check --dry-run
	$(BIN)/python -m pytest -n auto --maxprocesses=8 $(PYTEST_ARGS)

# The benchmark and the load test live in tools/bench, a development app: DEBUG installs it.
bench: $(VENV)/.installed-run
	DEBUG=1 $(BIN)/python manage.py benchmark $(BENCH_ARGS)

# Many tables through nginx, gunicorn, PostgreSQL (DATABASE_URL) and Redis, with wrk.
loadtest: $(VENV)/.installed-run /usr/bin/wrk /usr/sbin/nginx /usr/bin/redis-server
	DEBUG=1 $(BIN)/python manage.py loadtest $(LOADTEST_ARGS)

# The same night against main before the read model (f04a89f) and this checkout, in turns:
# worker CPU per request and every p95 side by side (tools/bench/compare_main.py).
loadtest-compare: $(VENV)/.installed-run /usr/bin/wrk /usr/sbin/nginx /usr/bin/redis-server
	$(BIN)/python tools/bench/compare_main.py $(COMPARE_ARGS)

# Refresh the translation catalogues after changing user-facing strings (needs gettext): the
# strings of the code, with what locale/pending/*.json translates (tools/apply_translations.py).
messages: $(VENV)/.installed-test
	$(BIN)/python tools/apply_translations.py

$(VENV)/bin/python:
	@$(PYTHON) -c 'import ensurepip, venv' 2>/dev/null || ($(APT_GET) update && $(APT_GET) install -y python3-venv python3-pip)
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(VENV)/.installed-run: pyproject.toml | $(VENV)/bin/python
	$(BIN)/python -m pip install --quiet -e .
	touch $@

$(VENV)/.installed-test: pyproject.toml | $(VENV)/bin/python
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $@ $(VENV)/.installed-run

/usr/bin/chromium:
	$(APT_GET) update
	$(APT_GET) install -y chromium

/usr/bin/wrk:
	$(APT_GET) update
	$(APT_GET) install -y wrk

/usr/sbin/nginx:
	$(APT_GET) update
	$(APT_GET) install -y nginx
	-service nginx stop >/dev/null 2>&1

/usr/bin/redis-server:
	$(APT_GET) update
	$(APT_GET) install -y redis-server
	-service redis-server stop >/dev/null 2>&1

clean:
	rm -rf $(VENV) staticfiles .pytest_cache
