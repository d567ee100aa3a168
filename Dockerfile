# syntax=docker/dockerfile:1
# landlord: one image, both components; the first argument picks one:
#   docker run ghcr.io/landlord-dev/landlord:0.1.0 operator
#   docker run ghcr.io/landlord-dev/landlord:0.1.0 sync
#   docker run ghcr.io/landlord-dev/landlord:0.1.0 purger
# The runtime writes nothing to disk, so it runs with a read-only root filesystem.

# The same Node.js release the tests run on (scripts/node24); e2e/deploy-image.test.ts keeps them equal.
ARG NODE_VERSION=24.22.3

# Compile TypeScript with the dev dependencies.
FROM node:${NODE_VERSION}-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
# No dependency needs an install script to compile (the native ones are test-only).
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY api api
COPY runtime runtime
COPY util util
COPY operator operator
COPY sync sync
COPY purger purger
COPY cli cli
COPY harness harness
COPY sandbox sandbox
COPY e2e e2e
COPY bench bench
COPY testing testing
COPY types types
RUN npm run build

# Production dependencies only, installed apart so the final stage has no npm cache.
FROM node:${NODE_VERSION}-bookworm-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund

FROM node:${NODE_VERSION}-bookworm-slim
LABEL org.opencontainers.image.title="landlord" \
      org.opencontainers.image.description="Runs tenants on Kubernetes from a DynamoDB table" \
      org.opencontainers.image.licenses="Apache-2.0"
# Package managers are not needed to run landlord; leaving them out leaves less to exploit.
# The official node image also ships yarn 1 (under /opt) and Node's C headers (for native addons).
RUN rm -rf /usr/local/lib/node_modules/npm /usr/local/lib/node_modules/corepack \
      /usr/local/bin/npm /usr/local/bin/npx /usr/local/bin/corepack \
      /opt/yarn-v* /usr/local/bin/yarn /usr/local/bin/yarnpkg /usr/local/include/node
ENV NODE_ENV=production
# glibc gives each thread that allocates an arena of its own (up to 8 per core) and keeps what is
# freed there; V8's compiler and GC threads and libuv's pool leave ~15 MiB behind that way. Two
# arenas cost no measurable CPU and lowered the peak RSS at 5,000 tenants by 10-16 MiB
# (docs/performance-notes/memory-at-rest.md). The benchmark runs the components with this ENV.
ENV MALLOC_ARENA_MAX=2
WORKDIR /app
COPY --from=deps /app/node_modules ./node_modules
# Only the runtime: no tests, test harness or benchmarks (so `landlord sandbox`, which starts a
# local control plane, is for a developer's machine, not the image). The CLI reads its version
# from package.json.
COPY --from=build /app/dist/api ./dist/api
COPY --from=build /app/dist/runtime ./dist/runtime
COPY --from=build /app/dist/util ./dist/util
COPY --from=build /app/dist/cli ./dist/cli
COPY --from=build /app/dist/operator ./dist/operator
COPY --from=build /app/dist/sync ./dist/sync
COPY --from=build /app/dist/purger ./dist/purger
COPY package.json ./
# Files stay owned by root; the process runs as an unprivileged numeric user (Kubernetes can
# check runAsNonRoot only against a numeric USER).
USER 65532:65532
EXPOSE 8080
# V8's optimizing compilers are left out (--no-opt: TurboFan, --no-maglev: Maglev; the baseline
# compiler Sparkplug stays): landlord waits on the API server and DynamoDB, not on its own
# JavaScript, and the compilers' code and zone memory cost ~9 MiB per process at rest and 20-35 MiB
# at the peaks of 5,000 Tenants, for 30-50 % more operator CPU in bursts with the same convergence
# time and edit latency (docs/performance-notes/memory-at-rest.md, "The optimizing compilers left out"; ADR 0006). Not --jitless:
# it also turns WebAssembly off, and undici parses HTTP/1 with it. --optimize-for-size stays out:
# it pins V8's young generation at 2 MiB (the 2026-12-01 amendment). NODE_OPTIONS refuses these
# flags, so they are here; bench/ runs the components with the flags found here.
ENTRYPOINT ["node", "--no-opt", "--no-maglev", "dist/cli/main.js"]
CMD ["--help"]
