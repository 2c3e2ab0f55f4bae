# Funding gateway image: one image for every process of the deployment.
#   default:             npm start                                  (all-in-one; embedded database unless DATABASE_URL)
#   docker-compose.yml:  npm run db:migrate                         (one-shot: migrations + demo seed)
#                        npm run start:service -- <name>            (profiles|matches|applications|tenants|gateway|rest)
FROM node:24-bookworm-slim

ENV HOST=0.0.0.0 \
    PORT=4000 \
    NPM_CONFIG_UPDATE_NOTIFIER=false \
    NPM_CONFIG_FUND=false \
    NPM_CONFIG_AUDIT=false

WORKDIR /app
RUN chown node:node /app
USER node

# Dependencies first, for layer caching. `npm ci` runs postinstall -> `prisma generate`, which reads
# prisma.config.ts and prisma/schema.prisma (the npm script supplies a placeholder DATABASE_URL) and
# writes the client to src/generated/prisma.
COPY --chown=node:node package.json package-lock.json prisma.config.ts ./
COPY --chown=node:node prisma ./prisma
RUN npm ci

# Sources (.dockerignore keeps node_modules, .data, .git and the host's generated client out), then
# the compiled server and browser bundles that `npm start` runs (postinstall found no sources yet).
COPY --chown=node:node . .
RUN npm run build

# The image runs the build's JavaScript (server and CLIs alike): the compilers, bundlers and test
# tools are removed. The generated Prisma client and the built bundles stay (they are not packages).
RUN npm prune --omit=dev --ignore-scripts

# Libraries' production paths (Express, graphql-js skip development-only checks). Set after the
# build: `npm ci` under NODE_ENV=production would leave out the dev dependencies the build needs.
ENV NODE_ENV=production

EXPOSE 4000
CMD ["npm", "start"]
