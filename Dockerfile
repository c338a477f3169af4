# Production image: production dependencies only, Bun from its official image, a non-root user, tini as PID 1 (so
# `docker stop` is one clean SIGTERM to the service), a readiness HEALTHCHECK, and the data in the /data volume.
FROM node:22-bookworm-slim AS deps
WORKDIR /srv
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force

FROM oven/bun:1.4.4-slim
RUN apt-get update && apt-get install -y --no-install-recommends tini && rm -rf /var/lib/apt/lists/*
WORKDIR /srv
COPY --from=deps /srv/node_modules ./node_modules
COPY package.json ./
COPY app ./app
COPY engine ./engine
COPY db ./db
COPY tenants ./tenants
# The web console: bundled from its sources by the service at its first request (console/build.ts).
COPY console ./console
COPY scripts ./scripts
RUN mkdir -p /data && chown bun:bun /data
USER bun
ENV NODE_ENV=production HOST=0.0.0.0 PORT=8080 DATA_DIR=/data
# The allocator's settings of scripts/runtime.env (npm start exports them; here the server starts without a script).
ENV MIMALLOC_PURGE_HOLES=0
VOLUME ["/data"]
EXPOSE 8080
HEALTHCHECK --interval=15s --timeout=3s --start-period=30s --retries=3 \
  CMD ["bun", "-e", "fetch('http://127.0.0.1:8080/health/ready').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
ENTRYPOINT ["/usr/bin/tini", "--"]
CMD ["bun", "app/http/serve.ts"]
