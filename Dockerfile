# Trick Night in a container. The same steps as CI's installed-wheel test (.ci/run): build the wheel
# with `pip wheel --no-deps`, install it into a fresh virtual environment, run `tricknight`.
#   docker build -t tricknight .
#   docker run -d --env-file .env -v tricknight-data:/data --restart unless-stopped tricknight
# (or `docker compose up -d --build` with compose.yaml). The database lives on the /data volume, or
# on a PostgreSQL server when TRICKNIGHT_DATABASE is a postgresql:// URL (the driver is installed).
# The same image runs `tricknight worker` (the NATS client is installed): README, Worker processes.

FROM python:3.11-slim AS build
WORKDIR /src
COPY pyproject.toml README.md ./
COPY bot/ bot/
COPY cogs/ cogs/
COPY data/migrations/ data/migrations/
RUN python -m venv /opt/build \
    && /opt/build/bin/pip install --no-cache-dir --upgrade pip \
    && /opt/build/bin/pip wheel --no-cache-dir --no-deps -w /dist .

FROM python:3.11-slim
ENV PYTHONUNBUFFERED=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PATH=/opt/tricknight/bin:$PATH \
    TRICKNIGHT_DATABASE=/data/tricknight.db
RUN useradd --system --uid 10001 --user-group --create-home --home-dir /home/tricknight tricknight \
    && mkdir -m 0700 /data && chown tricknight:tricknight /data
COPY --from=build /dist/ /tmp/dist/
RUN python -m venv /opt/tricknight \
    && /opt/tricknight/bin/pip install --no-cache-dir "$(ls /tmp/dist/*.whl)[postgresql,cluster]" \
    && rm -rf /tmp/dist
USER tricknight
WORKDIR /home/tricknight
VOLUME ["/data"]
# SIGTERM (docker stop) is a clean stop: the write in flight finishes and the bot exits 0.
STOPSIGNAL SIGTERM
HEALTHCHECK --interval=60s --timeout=10s --start-period=120s --retries=3 CMD ["tricknight", "health"]
ENTRYPOINT ["tricknight"]
CMD ["run"]
