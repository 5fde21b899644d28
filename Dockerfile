# The bomberzero image: the OpenBLAS build of the CLI on Debian bookworm.
#   docker build -t REGISTRY/bomberzero:TAG .
#   docker run --rm REGISTRY/bomberzero:TAG selfplay --run s3://BUCKET/PREFIX --follow
# Kubernetes manifests and the whole workflow: deploy/ and docs/scaling.md.
# Plain Dockerfile syntax (no BuildKit-only RUN --mount) so that kaniko,
# buildah and podman build it as docker does.

ARG GO_VERSION=1.26

FROM golang:${GO_VERSION}-bookworm AS build
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends libopenblas-dev \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /src
# Modules first, in their own layer: a source change does not download them again.
COPY go.mod go.sum ./
RUN go mod download
COPY . .
# No .git in the context (.dockerignore), so `bomberzero version` says
# "commit unknown"; the image's label records the commit instead (REVISION).
RUN CGO_ENABLED=1 go build -tags openblas -trimpath -o /out/bomberzero ./cmd/bomberzero \
 && /out/bomberzero version

FROM debian:bookworm-slim
ARG REVISION=unknown
LABEL org.opencontainers.image.title="bomberzero" \
      org.opencontainers.image.revision="${REVISION}"
# libopenblas0 is the run-time half of the build's libopenblas-dev;
# ca-certificates for the object stores' HTTPS.
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends libopenblas0 ca-certificates \
 && rm -rf /var/lib/apt/lists/* \
 && groupadd --gid 65532 bomberzero \
 && useradd --uid 65532 --gid 65532 --create-home --home-dir /home/bomberzero --shell /usr/sbin/nologin bomberzero
COPY --from=build /out/bomberzero /usr/local/bin/bomberzero
# Numeric, so that Kubernetes' runAsNonRoot can verify it (deploy/*.yaml run as 65532 too).
USER 65532:65532
WORKDIR /home/bomberzero
ENTRYPOINT ["bomberzero"]
CMD ["help"]
