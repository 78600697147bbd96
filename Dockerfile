# The production image: one image for the web (ASGI: HTTP and websockets), the Celery
# worker and Celery beat; docker-compose.yml picks the command.
FROM python:3.11-slim
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 DJANGO_DEBUG=false
WORKDIR /app
RUN apt-get update && apt-get install -y --no-install-recommends libjpeg62-turbo zlib1g curl \
    && rm -rf /var/lib/apt/lists/*
COPY . .
# Editable, so settings.BASE_DIR is /app and templates/ and static/ are found beside the code.
RUN pip install --no-cache-dir -e .
RUN SECRET_KEY=build python manage.py collectstatic --noinput
RUN useradd --create-home grail && mkdir -p /app/media && chown grail /app/media
USER grail
EXPOSE 8000
CMD ["uvicorn", "grailsite.asgi:application", "--host", "0.0.0.0", "--port", "8000", "--proxy-headers", "--forwarded-allow-ips", "*"]
