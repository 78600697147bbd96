# The production image: one image for the web (ASGI: HTTP and websockets), the Celery
# worker and Celery beat; docker-compose.yml picks the command.
FROM python:3.11-slim
# Production settings (grailsite/settings.py): debug off, and no start without a SECRET_KEY.
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 GRAILSITE_PRODUCTION=1
WORKDIR /app
RUN apt-get update && apt-get install -y --no-install-recommends libjpeg62-turbo zlib1g curl \
    && rm -rf /var/lib/apt/lists/*
COPY . .
# Editable, so settings.BASE_DIR is /app and templates/ and static/ are found beside the code;
# constrained to the versions the suite ran on.
RUN pip install --no-cache-dir -c requirements.lock -e .
# Static files are gathered with the development settings: no secret exists at build time.
RUN GRAILSITE_PRODUCTION=0 python manage.py collectstatic --noinput
RUN useradd --create-home grail && mkdir -p /app/media && chown grail /app/media
USER grail
EXPOSE 8000
# Proxy headers are read by the site, from TRUSTED_PROXIES only (grailsite/client_address.py),
# never by uvicorn: its "*" believed whatever a client wrote in X-Forwarded-For.
# grailsite/deploy/web.sh: uvicorn with --no-proxy-headers on 0.0.0.0:8000 (compose and
# `make prod` run the same script).
CMD ["grailsite/deploy/web.sh"]
