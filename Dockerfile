#
# Sluice container image (works with the classic builder and with BuildKit).
#   docker build -t sluice:0.1.0 .
#   docker run --rm -p 6650:6650 -p 8080:8080 -v /etc/sluice:/etc/sluice:ro \
#     -e SLUICE_ADMIN_TOKEN_FILE=/etc/sluice/admin-token -e SLUICE_UPSTREAM=pulsar://broker:6650 sluice:0.1.0
#   docker run --rm -p 9092-9095:9092-9095 -p 8080:8080 -v /etc/sluice:/etc/sluice:ro \
#     -e SLUICE_ADMIN_TOKEN_FILE=/etc/sluice/admin-token -e SLUICE_KAFKA_UPSTREAM=kafka-1:9092,kafka-2:9092 \
#     -e SLUICE_KAFKA_ADVERTISED_HOST=docker-host.example sluice:0.1.0   # Kafka: node N on port 9093+N
# The admin API listens on every interface, so Sluice starts only with an admin token file or with
# SLUICE_ADMIN_INSECURE=true (anyone who reaches port 8080 may then change every limit).
# Every option is an environment variable SLUICE_<OPTION> (see README, Options); arguments after
# the image name are passed to Sluice as flags and win over the environment. Secrets never go on
# the command line or into the image: mount them as files and name the files, e.g.
#   -v /etc/sluice:/etc/sluice:ro -e SLUICE_ADMIN_TOKEN_FILE=/etc/sluice/admin-token
#   -e SLUICE_TLS_CERT=/etc/sluice/tls.crt -e SLUICE_TLS_KEY=/etc/sluice/tls.key
#
# Without network access to Maven Central inside the build, package the jar on the host and only
# copy it in (the "prebuilt" target):
#   mvn -B -q package -DskipTests -pl proxy-server -am
#   docker build --target prebuilt -t sluice:0.1.0 .
# Both base images are build arguments, e.g. --build-arg RUNTIME_IMAGE=registry.example/jre:17.

ARG BUILD_IMAGE=maven:3.9-eclipse-temurin-17
ARG RUNTIME_IMAGE=eclipse-temurin:17-jre

# ---- runtime-base: a JRE, the user, the environment; both final images derive from it ----
FROM ${RUNTIME_IMAGE} AS runtime-base

# A fixed numeric UID, so Kubernetes' runAsNonRoot can check it without reading /etc/passwd
# and volume ownership (fsGroup) is predictable.
RUN groupadd --gid 10001 sluice \
 && useradd --uid 10001 --gid 10001 --home-dir /var/lib/sluice --no-create-home \
      --shell /usr/sbin/nologin sluice \
 && mkdir -p /opt/sluice /var/lib/sluice \
 && chown 10001:10001 /var/lib/sluice

# Listen on every interface inside the container (the jar's defaults, stated so that `docker
# inspect` shows them); the limits file lives on the volume because the REST API rewrites it. No
# token is baked in: without SLUICE_ADMIN_TOKEN_FILE (or SLUICE_ADMIN_INSECURE=true) Sluice refuses
# to start, rather than serve an admin API anyone can use.
ENV SLUICE_LISTEN=0.0.0.0:6650 \
    SLUICE_KAFKA_LISTEN=0.0.0.0:9092 \
    SLUICE_ADMIN=0.0.0.0:8080 \
    SLUICE_LIMITS_FILE=/var/lib/sluice/limits.json \
    JAVA_TOOL_OPTIONS="-XX:MaxRAMPercentage=75 -XX:+ExitOnOutOfMemoryError"

# Pulsar protocol, Kafka bootstrap, then admin API / metrics / probes (GET /healthz, /readyz).
# Kafka broker node N is served on 9093+N (--kafka-node-port-base): publish those as the cluster needs.
EXPOSE 6650 9092 8080

VOLUME ["/var/lib/sluice"]
WORKDIR /var/lib/sluice
USER 10001:10001

# Exec form: java is PID 1 and gets SIGTERM itself, so Sluice drains and exits 0.
ENTRYPOINT ["java", "-jar", "/opt/sluice/sluice.jar"]

# ---- prebuilt: the runtime with a jar built on the host (docker build --target prebuilt) ----
# It comes before the Maven stage because the classic builder builds every stage up to its target.
FROM runtime-base AS prebuilt
ARG SLUICE_JAR=proxy-server/target/sluice.jar
COPY ${SLUICE_JAR} /opt/sluice/sluice.jar

# ---- build: the same command as a developer's build, limited to the server and what it needs ----
FROM ${BUILD_IMAGE} AS build
WORKDIR /src
COPY . .
# -am also builds test-broker (a test dependency of proxy-server), so the build downloads the
# Pulsar broker's jars too; they never reach the image.
RUN mvn -B -q package -DskipTests -pl proxy-server -am

# ---- runtime (the default target): the runtime with the jar built above ----
FROM runtime-base AS runtime
COPY --from=build /src/proxy-server/target/sluice.jar /opt/sluice/sluice.jar
