# Funding gateway image: one image for every process of the deployment, in three stages.
#   build:         every dependency (compilers, bundlers, the Prisma CLI), the generated clients and `npm run build`
#   dependencies:  `npm ci --omit=dev`: the packages the built server imports, nothing else
#   runtime:       those packages, the build's JavaScript and the files the server reads; tini as PID 1
#
# The runtime runs node directly (no npm, no build check at start) under tini, which forwards
# signals to it and reaps the processes it leaves behind:
#   default:             node dist/server/src/processes/start.js               (all-in-one; needs DATABASE_URL:
#                                                                             the embedded PostgreSQL is a development tool)
#   docker-compose.yml:  node dist/server/src/processes/cli/migrate.js        (one-shot: migrations + demo seed)
#                        node dist/server/src/processes/service.js <name>     (profiles|matches|applications|tenants|gateway|rest|worker)
# The root filesystem may be read-only (docker-compose.yml and deploy/kubernetes run it so): the
# processes write only to the volumes declared below. Checked by test/container-image.test.ts.

FROM node:24-bookworm-slim AS build
ENV NPM_CONFIG_UPDATE_NOTIFIER=false \
    NPM_CONFIG_FUND=false \
    NPM_CONFIG_AUDIT=false
WORKDIR /app
RUN chown node:node /app
USER node
# Dependencies first, for layer caching. `npm ci` runs postinstall -> `prisma generate`, which reads
# prisma.config.ts and prisma/schema.prisma and writes the clients to src/generated; its build step
# finds no sources yet and waits for the one below.
COPY --chown=node:node package.json package-lock.json prisma.config.ts ./
COPY --chown=node:node prisma ./prisma
RUN npm ci
# Sources (.dockerignore keeps node_modules, .data, .git and the host's generated clients out).
COPY --chown=node:node . .
RUN npm run build

FROM node:24-bookworm-slim AS dependencies
ENV NPM_CONFIG_UPDATE_NOTIFIER=false \
    NPM_CONFIG_FUND=false \
    NPM_CONFIG_AUDIT=false
WORKDIR /app
COPY package.json package-lock.json ./
# Production dependencies only. --omit=optional as well: npm keeps a devDependency that a production
# package names as an optional peer (the Prisma CLI and TypeScript, peers of @prisma/client, with
# their own dependencies, about 120 MB); the only other optional package is pg-cloudflare, for
# Cloudflare Workers. No install scripts: the one script of the project (postinstall) generates and
# builds, which the build stage did; argon2 loads the prebuilt binary its package ships.
RUN npm ci --omit=dev --omit=optional --ignore-scripts

FROM node:24-bookworm-slim AS runtime
RUN apt-get update \
    && apt-get install -y --no-install-recommends tini \
    && rm -rf /var/lib/apt/lists/*
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=4000
WORKDIR /app
# What the built server reads at run time: package.json (version, and with prisma/schema.prisma the
# marks of the repository root), the migrations, the data files beside the sources (questionnaire
# definitions, code lists, the composed supergraph, recorded OpenAPI examples), the guides it serves
# and the build (dist/server, dist/web). Owned by root, not writable by the node user.
COPY package.json ./
COPY prisma ./prisma
COPY docs ./docs
COPY --from=build /app/src ./src
COPY --from=build /app/dist ./dist
COPY --from=dependencies /app/node_modules ./node_modules
# The writable places: DATA_DIR (./.data: the running-server record; the subgraph secret in demo) and
# the upload spool (UPLOAD_SPOOL_DIR under /tmp). Everything else may be mounted read-only.
RUN mkdir -p /app/.data && chown node:node /app/.data
VOLUME ["/app/.data", "/tmp"]
USER node
EXPOSE 4000
# Slim images have no curl: Node's fetch against this container's own PORT (every process serves /health).
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
    CMD ["node", "-e", "fetch('http://127.0.0.1:' + process.env.PORT + '/health', { signal: AbortSignal.timeout(2500) }).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
ENTRYPOINT ["/usr/bin/tini", "--"]
CMD ["node", "dist/server/src/processes/start.js"]
