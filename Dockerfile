# syntax=docker/dockerfile:1
#
# Sluice container image.
#   docker build -t sluice:0.1.0 .
#   docker run --rm -p 6650:6650 -p 8080:8080 -e SLUICE_UPSTREAM=pulsar://broker:6650 sluice:0.1.0
# Every option is an environment variable SLUICE_<OPTION> (see README, Options); arguments after
# the image name are passed to Sluice as flags and win over the environment.

# ---- build: the same command as a developer's build, limited to the server and what it needs ----
FROM maven:3.9-eclipse-temurin-17 AS build
WORKDIR /src
COPY . .
# The cache mount keeps ~/.m2 between builds; -am also builds test-broker (a test dependency of
# proxy-server), so the first build downloads the Pulsar broker's jars once.
RUN --mount=type=cache,target=/root/.m2 \
    mvn -B -q package -DskipTests -pl proxy-server -am

# ---- runtime: a JRE and the shaded jar, nothing else ----
FROM eclipse-temurin:17-jre

# A fixed numeric UID, so Kubernetes' runAsNonRoot can check it without reading /etc/passwd
# and volume ownership (fsGroup) is predictable.
RUN groupadd --gid 10001 sluice \
 && useradd --uid 10001 --gid 10001 --home-dir /var/lib/sluice --no-create-home \
      --shell /usr/sbin/nologin sluice \
 && mkdir -p /opt/sluice /var/lib/sluice \
 && chown 10001:10001 /var/lib/sluice

COPY --from=build /src/proxy-server/target/sluice.jar /opt/sluice/sluice.jar

# Listen on every interface inside the container (the jar's defaults, stated so that `docker
# inspect` shows them); the limits file lives on the volume because the REST API rewrites it.
ENV SLUICE_LISTEN=0.0.0.0:6650 \
    SLUICE_ADMIN=0.0.0.0:8080 \
    SLUICE_LIMITS_FILE=/var/lib/sluice/limits.json \
    JAVA_TOOL_OPTIONS="-XX:MaxRAMPercentage=75 -XX:+ExitOnOutOfMemoryError"

# Pulsar protocol, then admin API / metrics / probes (GET /healthz, /readyz).
EXPOSE 6650 8080

VOLUME ["/var/lib/sluice"]
WORKDIR /var/lib/sluice
USER 10001:10001

# Exec form: java is PID 1 and gets SIGTERM itself, so Sluice drains and exits 0.
ENTRYPOINT ["java", "-jar", "/opt/sluice/sluice.jar"]
