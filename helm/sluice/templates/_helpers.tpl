{{/*
Names
*/}}
{{- define "sluice.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/*
Fully qualified name: the release name when it already contains the chart name, so
`helm install sluice ./helm/sluice` names things "sluice-..." and not "sluice-sluice-...".
Truncated to leave room for the longest suffix ("-sidecar-patch").
*/}}
{{- define "sluice.fullname" -}}
{{- if .Values.fullnameOverride }}
{{- .Values.fullnameOverride | trunc 48 | trimSuffix "-" }}
{{- else }}
{{- $name := default .Chart.Name .Values.nameOverride }}
{{- if contains $name .Release.Name }}
{{- .Release.Name | trunc 48 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-%s" .Release.Name $name | trunc 48 | trimSuffix "-" }}
{{- end }}
{{- end }}
{{- end }}

{{- define "sluice.chart" -}}
{{- printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/*
Labels every object of the release carries.
*/}}
{{- define "sluice.labels" -}}
helm.sh/chart: {{ include "sluice.chart" . }}
{{ include "sluice.selectorLabels" . }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
app.kubernetes.io/component: {{ .Values.mode }}
{{- end }}

{{/*
The subset that selects pods; it must never change across upgrades (Deployment selectors are immutable).
*/}}
{{- define "sluice.selectorLabels" -}}
app.kubernetes.io/name: {{ include "sluice.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end }}

{{- define "sluice.image" -}}
{{- printf "%s:%s" .Values.image.repository (default .Chart.AppVersion .Values.image.tag) }}
{{- end }}

{{/*
Checks the values once, so a bad combination fails `helm install` with a message instead of
rendering something that crash-loops.
*/}}
{{- define "sluice.validate" -}}
{{- if not (has .Values.mode (list "sidecar" "proxy")) }}
{{- fail (printf "mode must be sidecar or proxy, got %q" (toString .Values.mode)) }}
{{- end }}
{{- if eq .Values.mode "proxy" }}
{{- if not (or .Values.upstream .Values.kafka.upstream) }}
{{- fail "mode=proxy needs upstream (the Pulsar broker service URL, e.g. --set upstream=pulsar://pulsar-broker:6650) or kafka.upstream (the Kafka bootstrap servers), or both" }}
{{- end }}
{{- if and .Values.upstream (not (or (hasPrefix "pulsar://" .Values.upstream) (hasPrefix "pulsar+ssl://" .Values.upstream))) }}
{{- fail (printf "upstream must be a pulsar://host:port or pulsar+ssl://host:port URL, got %q" .Values.upstream) }}
{{- end }}
{{- if .Values.kafka.upstream }}
{{- range .Values.kafka.nodeIds }}
{{- if gt (add (int $.Values.kafka.nodePortBase) (int .)) 65535 }}
{{- fail (printf "kafka.nodePortBase + node id %d is past port 65535" (int .)) }}
{{- end }}
{{- end }}
{{- end }}
{{- end }}
{{- if and .Values.kafka.lookupSasl.mechanism (not (and (eq .Values.mode "proxy") .Values.kafka.upstream)) }}
{{- fail "kafka.lookupSasl is for mode=proxy with kafka.upstream" }}
{{- end }}
{{- if and .Values.kafka.lookupSasl.mechanism (not (and .Values.kafka.lookupSasl.username .Values.kafka.lookupSasl.passwordSecretName)) }}
{{- fail "kafka.lookupSasl.mechanism needs kafka.lookupSasl.username and kafka.lookupSasl.passwordSecretName" }}
{{- end }}
{{- if and .Values.kafka.upstreamTls (not (and (eq .Values.mode "proxy") .Values.kafka.upstream)) }}
{{- fail "kafka.upstreamTls is for mode=proxy with kafka.upstream, the brokers' SSL listener" }}
{{- end }}
{{- if and .Values.upstreamTls.caSecretName (not (and (eq .Values.mode "proxy") (or (hasPrefix "pulsar+ssl://" .Values.upstream) .Values.kafka.upstreamTls))) }}
{{- fail "upstreamTls.caSecretName is for mode=proxy with a pulsar+ssl:// upstream or kafka.upstreamTls" }}
{{- end }}
{{- if and .Values.upstreamTls.clientCertSecretName (not (and (eq .Values.mode "proxy") (or (hasPrefix "pulsar+ssl://" .Values.upstream) .Values.kafka.upstreamTls))) }}
{{- fail "upstreamTls.clientCertSecretName is for mode=proxy with a pulsar+ssl:// upstream or kafka.upstreamTls" }}
{{- end }}
{{- if and .Values.adminReadToken.existingSecret (not .Values.adminReadToken.existingSecretKey) }}
{{- fail "adminReadToken.existingSecret needs adminReadToken.existingSecretKey, the key that holds the read-only token" }}
{{- end }}
{{- if and .Values.tls.enabled (not .Values.tls.secretName) (not .Values.tls.certManager.enabled) }}
{{- fail "tls.enabled needs tls.secretName (a kubernetes.io/tls Secret) or tls.certManager.enabled" }}
{{- end }}
{{- if and .Values.tls.certManager.enabled (not .Values.tls.certManager.issuerRef.name) }}
{{- fail "tls.certManager.enabled needs tls.certManager.issuerRef.name" }}
{{- end }}
{{- if and .Values.tls.clientCa.secretName (not .Values.tls.enabled) }}
{{- fail "tls.clientCa needs tls.enabled: client certificates are asked for in the TLS handshake" }}
{{- end }}
{{- if lt (int .Values.drainTimeoutSeconds) 1 }}
{{- fail "drainTimeoutSeconds must be a positive number of seconds" }}
{{- end }}
{{- if lt (int .Values.handshakeTimeoutSeconds) 1 }}
{{- fail "handshakeTimeoutSeconds must be a positive number of seconds" }}
{{- end }}
{{- if lt (int .Values.adminIdleTimeoutSeconds) 1 }}
{{- fail "adminIdleTimeoutSeconds must be a positive number of seconds" }}
{{- end }}
{{- if lt (int .Values.frameTimeoutSeconds) 1 }}
{{- fail "frameTimeoutSeconds must be a positive number of seconds" }}
{{- end }}
{{- $_ := include "sluice.terminationGracePeriodSeconds" . }}
{{- if or (hasKey .Values "existingSecret") (hasKey .Values "existingSecretKey") }}
{{- fail "existingSecret and existingSecretKey moved to adminToken.existingSecret and adminToken.existingSecretKey" }}
{{- end }}
{{- if and .Values.adminToken.existingSecret .Values.adminToken.value }}
{{- fail "adminToken.value and adminToken.existingSecret: give the token one way, not both" }}
{{- end }}
{{- if and .Values.adminToken.existingSecret (not .Values.adminToken.existingSecretKey) }}
{{- fail "adminToken.existingSecret needs adminToken.existingSecretKey, the key that holds the token" }}
{{- end }}
{{- with .Values.cluster }}
{{- if not (has (toString .limitsSource) (list "" "file" "store")) }}
{{- fail (printf "cluster.limitsSource must be file or store (or empty: store when there is a store), got %q" (toString .limitsSource)) }}
{{- end }}
{{- if and .store .bundledStore.enabled }}
{{- fail "cluster.store and cluster.bundledStore.enabled: the Sluices use one store, yours or the bundled one; set one of them" }}
{{- end }}
{{- if and .perReplicaLimits (or .store .bundledStore.enabled) }}
{{- fail "cluster.perReplicaLimits=true says each replica limits alone, but a store (cluster.store or cluster.bundledStore) shares the limits; set one or the other" }}
{{- end }}
{{- if and (eq (toString .limitsSource) "store") (not (or .store .bundledStore.enabled)) }}
{{- fail "cluster.limitsSource=store needs cluster.store, e.g. --set cluster.store=redis://redis:6379, or cluster.bundledStore.enabled=true" }}
{{- end }}
{{- if and (eq $.Values.mode "proxy") (gt (int $.Values.replicas) 1) (not (or .store .bundledStore.enabled .perReplicaLimits)) }}
{{- fail (printf "replicas=%d without a shared store lets each replica enforce every limit on its own (%d times the limit in total): set cluster.store=redis://HOST:6379, or cluster.bundledStore.enabled=true, or cluster.perReplicaLimits=true to accept per-replica limits" (int $.Values.replicas) (int $.Values.replicas)) }}
{{- end }}
{{- if and .bundledStore.enabled .tls.caSecret }}
{{- fail "cluster.tls.caSecret is for a rediss:// cluster.store; the bundled store speaks redis:// inside the cluster" }}
{{- end }}
{{- if and .store (not (or (hasPrefix "redis://" .store) (hasPrefix "rediss://" .store))) }}
{{- fail (printf "cluster.store must be a redis:// or rediss:// URL, got %q" .store) }}
{{- end }}
{{- if and .tls.caSecret (not (hasPrefix "rediss://" (toString .store))) }}
{{- fail "cluster.tls.caSecret needs a rediss:// cluster.store" }}
{{- end }}
{{- end }}
{{- with .Values.networkPolicy }}
{{- if and .enabled (eq $.Values.mode "sidecar") (not .sidecar.brokerIngress) }}
{{- fail "networkPolicy.enabled in sidecar mode selects the broker pods, which then admit only what a policy allows: name the rules for the broker's own ports in networkPolicy.sidecar.brokerIngress, e.g. [{ports: [{port: 6650}, {port: 8080}]}]" }}
{{- end }}
{{- end }}
{{- end }}

{{/*
Kubernetes sends SIGKILL when the grace period ends; Sluice needs the whole drain timeout plus
time to close connections and exit, so the grace period is always longer than the drain.
*/}}
{{- define "sluice.terminationGracePeriodSeconds" -}}
{{- $drain := int .Values.drainTimeoutSeconds }}
{{- if .Values.terminationGracePeriodSeconds }}
{{- $grace := int .Values.terminationGracePeriodSeconds }}
{{- if le $grace $drain }}
{{- fail (printf "terminationGracePeriodSeconds (%d) must be greater than drainTimeoutSeconds (%d)" $grace $drain) }}
{{- end }}
{{- $grace }}
{{- else }}
{{- add $drain 20 }}
{{- end }}
{{- end }}

{{/*
Mode-dependent settings: the sidecar listens on the broker's advertised external port and
forwards to the broker's private loopback listener; the front proxy forwards to the broker
service and rewrites lookups.
*/}}
{{- define "sluice.listenPort" -}}
{{- if eq .Values.mode "sidecar" }}{{ int .Values.sidecar.port }}{{ else }}{{ int .Values.port }}{{ end }}
{{- end }}

{{- define "sluice.adminPort" -}}
{{- if eq .Values.mode "sidecar" }}{{ int .Values.sidecar.adminPort }}{{ else }}{{ int .Values.adminPort }}{{ end }}
{{- end }}

{{- define "sluice.upstream" -}}
{{- if eq .Values.mode "sidecar" }}{{ printf "pulsar://127.0.0.1:%d" (int .Values.sidecar.brokerBindPort) }}{{ else }}{{ .Values.upstream }}{{ end }}
{{- end }}

{{/*
Which front ends run: Pulsar in proxy mode when upstream is set, in sidecar mode unless the
sidecar is Kafka's; Kafka in proxy mode when kafka.upstream is set, in sidecar mode when the
sidecar is Kafka's. Each renders "true" or nothing.
*/}}
{{- define "sluice.pulsarEnabled" -}}
{{- if eq .Values.mode "sidecar" }}{{ if not .Values.kafka.sidecar.enabled }}true{{ end }}{{ else if .Values.upstream }}true{{ end }}
{{- end }}

{{- define "sluice.kafkaEnabled" -}}
{{- if eq .Values.mode "sidecar" }}{{ if .Values.kafka.sidecar.enabled }}true{{ end }}{{ else if .Values.kafka.upstream }}true{{ end }}
{{- end }}

{{- define "sluice.kafkaListenPort" -}}
{{- if eq .Values.mode "sidecar" }}{{ int .Values.kafka.sidecar.port }}{{ else }}{{ int .Values.kafka.port }}{{ end }}
{{- end }}

{{- define "sluice.kafkaAdvertisedHost" -}}
{{- .Values.kafka.advertisedHost | default (printf "%s.%s.svc.cluster.local" (include "sluice.fullname" .) .Release.Namespace) }}
{{- end }}

{{- define "sluice.lookupMode" -}}
{{- if eq .Values.mode "sidecar" }}passthrough{{ else }}rewrite{{ end }}
{{- end }}

{{/*
Broker pod labels for the sidecar Service. The default lives here, not in values.yaml, because
Helm merges a user's map into a default map, and a selector must be replaceable.
*/}}
{{- define "sluice.brokerPodSelector" -}}
{{- toYaml (.Values.sidecar.brokerPodSelector | default (dict "app" "pulsar" "component" "broker")) }}
{{- end }}

{{- define "sluice.limitsConfigMapName" -}}
{{- printf "%s-limits" (include "sluice.fullname" .) }}
{{- end }}

{{/*
The admin token's Secret and key: the operator's (adminToken.existingSecret), or the one this
chart renders. There is always one: no pod of this chart runs without a token.
*/}}
{{- define "sluice.secretName" -}}
{{- if .Values.adminToken.existingSecret }}{{ .Values.adminToken.existingSecret }}{{ else }}{{ printf "%s-admin-token" (include "sluice.fullname" .) }}{{ end }}
{{- end }}

{{- define "sluice.secretKey" -}}
{{- if .Values.adminToken.existingSecret }}{{ .Values.adminToken.existingSecretKey }}{{ else }}admin-token{{ end }}
{{- end }}

{{/*
A generated secret that survives upgrades: on `helm upgrade` the value already in the cluster's
Secret (name, key), otherwise a new random one. Only upgrades look it up, so installs and
`helm template` never contact a cluster; a value that must not change between renders belongs in
a Secret of the operator's (existingSecret).
*/}}
{{- define "sluice.keptRandom" -}}
{{- $existing := dict }}
{{- if .context.Release.IsUpgrade }}
{{- $existing = lookup "v1" "Secret" .context.Release.Namespace .name | default dict }}
{{- end }}
{{- if and $existing.data (hasKey $existing.data .key) }}
{{- index $existing.data .key | b64dec }}
{{- else }}
{{- randAlphaNum 32 }}
{{- end }}
{{- end }}

{{/*
The admin port's own Service: always ClusterIP, never the client-facing one.
*/}}
{{- define "sluice.adminServiceName" -}}
{{- printf "%s-admin" (include "sluice.fullname" .) }}
{{- end }}

{{/*
The label only the admin Service carries: the ServiceMonitor selects the admin Service by it and
takes the job name from it (the release's full name, the job it had before the admin port moved).
*/}}
{{- define "sluice.metricsJobLabel" -}}sluice.io/metrics-job{{- end }}

{{/*
The bundled store (cluster.bundledStore): its name (StatefulSet, Service, Secret), short enough
for the StatefulSet's controller-revision-hash label, and the labels of its pods, which must not
carry Sluice's selector labels (the Deployment and the Services select by those).
*/}}
{{- define "sluice.storeName" -}}
{{- printf "%s-store" (include "sluice.fullname" . | trunc 46 | trimSuffix "-") }}
{{- end }}

{{- define "sluice.storeSelectorLabels" -}}
app.kubernetes.io/name: {{ printf "%s-store" (include "sluice.name" .) }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end }}

{{- define "sluice.storeLabels" -}}
helm.sh/chart: {{ include "sluice.chart" . }}
{{ include "sluice.selectorLabels" . }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
app.kubernetes.io/component: cluster-store
{{- end }}

{{/*
The store password's Secret and key with the bundled store: the operator's
(cluster.password.existingSecret), or the one the chart generates.
*/}}
{{- define "sluice.storePasswordSecret" -}}
{{- .Values.cluster.password.existingSecret | default (include "sluice.storeName" .) }}
{{- end }}

{{- define "sluice.storePasswordKey" -}}
{{- if .Values.cluster.password.existingSecret }}{{ .Values.cluster.password.existingSecretKey }}{{ else }}password{{ end }}
{{- end }}

{{/*
The store the Sluices share: cluster.store, the bundled store's URL, or nothing.
*/}}
{{- define "sluice.clusterStore" -}}
{{- if .Values.cluster.store }}{{ .Values.cluster.store }}{{ else if .Values.cluster.bundledStore.enabled }}{{ printf "redis://%s.%s.svc:6379" (include "sluice.storeName" .) .Release.Namespace }}{{ end }}
{{- end }}

{{/*
--limits-source: as set, or store whenever there is a store (a PUT on any pod then applies to
all), file otherwise.
*/}}
{{- define "sluice.limitsSource" -}}
{{- if .Values.cluster.limitsSource }}{{ .Values.cluster.limitsSource }}{{ else if include "sluice.clusterStore" . }}store{{ else }}file{{ end }}
{{- end }}

{{/*
Labels of the pods Sluice runs in: its own (proxy mode) or the brokers' (sidecar mode).
*/}}
{{- define "sluice.podSelector" -}}
{{- if eq .Values.mode "sidecar" }}{{ include "sluice.brokerPodSelector" . }}{{ else }}{{ include "sluice.selectorLabels" . }}{{ end }}
{{- end }}

{{- define "sluice.tlsSecretName" -}}
{{- .Values.tls.secretName | default (printf "%s-tls" (include "sluice.fullname" .)) }}
{{- end }}

{{/*
Where the secret files are mounted. Whole Secret volumes, never subPath mounts: the kubelet
updates a Secret volume in place when the Secret changes, and Sluice re-reads the files, but a
subPath mount would keep the first version for the life of the pod.
*/}}
{{- define "sluice.adminTokenFile" -}}/etc/sluice/admin-token/admin-token{{- end }}

{{/* Where the password of Sluice's own Kafka login (kafka.lookupSasl) is mounted. */}}
{{- define "sluice.lookupPasswordFile" -}}/etc/sluice/kafka-lookup/password{{- end }}
{{- define "sluice.tlsDir" -}}/etc/sluice/tls{{- end }}
{{- define "sluice.clientCaDir" -}}/etc/sluice/client-ca{{- end }}
{{- define "sluice.upstreamCaDir" -}}/etc/sluice/upstream-ca{{- end }}
{{- define "sluice.upstreamClientCertDir" -}}/etc/sluice/upstream-client{{- end }}
{{- define "sluice.adminReadTokenFile" -}}/etc/sluice/admin-read-token/read-token{{- end }}

{{- define "sluice.probeScheme" -}}
{{- if .Values.tls.enabled }}HTTPS{{ else }}HTTP{{ end }}
{{- end }}

{{/*
prometheus.io annotations, understood by the usual Prometheus kubernetes_sd scrape configs.
*/}}
{{- define "sluice.scrapeAnnotations" -}}
prometheus.io/scrape: "true"
prometheus.io/port: {{ include "sluice.adminPort" . | quote }}
prometheus.io/path: /metrics
{{- if .Values.tls.enabled }}
prometheus.io/scheme: https
{{- end }}
{{- end }}

{{/*
The init container: seeds the writable limits file from the ConfigMap, once. The file must be
writable because every PUT/DELETE on the REST API persists to it; a file that already exists
(a container restart, or a persistent volume) is kept.
*/}}
{{- define "sluice.initContainer" -}}
- name: sluice-limits-seed
  image: {{ include "sluice.image" . }}
  imagePullPolicy: {{ .Values.image.pullPolicy }}
  command:
    - /bin/sh
    - -c
    - '[ -e /var/lib/sluice/limits.json ] || cp /etc/sluice/limits.json /var/lib/sluice/limits.json'
  resources:
    {{- toYaml .Values.resources | nindent 4 }}
  securityContext:
    {{- toYaml .Values.securityContext | nindent 4 }}
  volumeMounts:
    - name: sluice-limits
      mountPath: /etc/sluice
      readOnly: true
    - name: sluice-data
      mountPath: /var/lib/sluice
{{- end }}

{{/*
The Sluice container, configured only through SLUICE_* environment variables (one per option).
*/}}
{{- define "sluice.container" -}}
{{- $adminPort := include "sluice.adminPort" . | int -}}
- name: sluice
  image: {{ include "sluice.image" . }}
  imagePullPolicy: {{ .Values.image.pullPolicy }}
  env:
    {{- if include "sluice.pulsarEnabled" . }}
    - name: SLUICE_UPSTREAM
      value: {{ include "sluice.upstream" . | quote }}
    - name: SLUICE_LISTEN
      value: {{ printf "0.0.0.0:%s" (include "sluice.listenPort" .) | quote }}
    - name: SLUICE_LOOKUP_MODE
      value: {{ include "sluice.lookupMode" . | quote }}
    {{- if and (eq .Values.mode "proxy") .Values.allowedBrokers }}
    - name: SLUICE_ALLOWED_BROKERS
      value: {{ .Values.allowedBrokers | quote }}
    {{- end }}
    {{- if .Values.pulsarRoleClaim }}
    - name: SLUICE_PULSAR_ROLE_CLAIM
      value: {{ .Values.pulsarRoleClaim | quote }}
    {{- end }}
    {{- end }}
    {{- if include "sluice.kafkaEnabled" . }}
    - name: SLUICE_KAFKA_LISTEN
      value: {{ printf "0.0.0.0:%s" (include "sluice.kafkaListenPort" .) | quote }}
    {{- if eq .Values.mode "sidecar" }}
    - name: SLUICE_KAFKA_UPSTREAM
      value: {{ printf "127.0.0.1:%d" (int .Values.kafka.sidecar.brokerBindPort) | quote }}
    - name: SLUICE_KAFKA_ADDRESS_MODE
      value: passthrough
    {{- else }}
    - name: SLUICE_KAFKA_UPSTREAM
      value: {{ .Values.kafka.upstream | quote }}
    - name: SLUICE_KAFKA_ADDRESS_MODE
      value: rewrite
    - name: SLUICE_KAFKA_ADVERTISED_HOST
      value: {{ include "sluice.kafkaAdvertisedHost" . | quote }}
    - name: SLUICE_KAFKA_NODE_PORT_BASE
      value: {{ int .Values.kafka.nodePortBase | toString | quote }}
    {{- if .Values.kafka.upstreamTls }}
    - name: SLUICE_KAFKA_UPSTREAM_TLS
      value: "true"
    {{- end }}
    {{- if .Values.kafka.lookupSasl.mechanism }}
    - name: SLUICE_KAFKA_LOOKUP_SASL_MECHANISM
      value: {{ .Values.kafka.lookupSasl.mechanism | quote }}
    - name: SLUICE_KAFKA_LOOKUP_SASL_USERNAME
      value: {{ .Values.kafka.lookupSasl.username | quote }}
    - name: SLUICE_KAFKA_LOOKUP_SASL_PASSWORD_FILE
      value: {{ include "sluice.lookupPasswordFile" . }}
    {{- end }}
    {{- end }}
    {{- if .Values.kafka.sslPrincipalMappingRules }}
    - name: SLUICE_KAFKA_SSL_PRINCIPAL_MAPPING_RULES
      value: {{ .Values.kafka.sslPrincipalMappingRules | quote }}
    {{- end }}
    {{- end }}
    - name: SLUICE_ADMIN
      value: {{ printf "0.0.0.0:%d" $adminPort | quote }}
    - name: SLUICE_LIMITS_FILE
      value: /var/lib/sluice/limits.json
    - name: SLUICE_ADMIN_TOKEN_FILE
      value: {{ include "sluice.adminTokenFile" . }}
    {{- if .Values.adminReadToken.existingSecret }}
    - name: SLUICE_ADMIN_READ_TOKEN_FILE
      value: {{ include "sluice.adminReadTokenFile" . }}
    {{- end }}
    - name: SLUICE_ADMIN_MAX_CONNECTIONS
      value: {{ int .Values.adminMaxConnections | toString | quote }}
    {{- if .Values.tls.enabled }}
    - name: SLUICE_TLS_CERT
      value: {{ include "sluice.tlsDir" . }}/tls.crt
    - name: SLUICE_TLS_KEY
      value: {{ include "sluice.tlsDir" . }}/tls.key
    {{- if .Values.tls.clientCa.secretName }}
    - name: SLUICE_TLS_CLIENT_CA
      value: {{ printf "%s/%s" (include "sluice.clientCaDir" .) .Values.tls.clientCa.key }}
    {{- end }}
    {{- end }}
    {{- if .Values.upstreamTls.caSecretName }}
    - name: SLUICE_UPSTREAM_TLS_CA
      value: {{ printf "%s/%s" (include "sluice.upstreamCaDir" .) .Values.upstreamTls.caKey }}
    {{- end }}
    {{- if .Values.upstreamTls.clientCertSecretName }}
    - name: SLUICE_UPSTREAM_TLS_CERT
      value: {{ include "sluice.upstreamClientCertDir" . }}/tls.crt
    - name: SLUICE_UPSTREAM_TLS_KEY
      value: {{ include "sluice.upstreamClientCertDir" . }}/tls.key
    {{- end }}
    - name: SLUICE_METRICS_MAX_TOPICS
      value: {{ int .Values.metricsMaxTopics | toString | quote }}
    - name: SLUICE_METRICS_MAX_IDENTITIES
      value: {{ int .Values.metricsMaxIdentities | toString | quote }}
    - name: SLUICE_DRAIN_TIMEOUT
      value: {{ int .Values.drainTimeoutSeconds | toString | quote }}
    - name: SLUICE_HANDSHAKE_TIMEOUT
      value: {{ int .Values.handshakeTimeoutSeconds | toString | quote }}
    - name: SLUICE_ADMIN_IDLE_TIMEOUT
      value: {{ int .Values.adminIdleTimeoutSeconds | toString | quote }}
    - name: SLUICE_LOG_FORMAT
      value: {{ .Values.logFormat | quote }}
    - name: SLUICE_LOG_LEVELS
      value: {{ .Values.logLevels | quote }}
    - name: SLUICE_MAX_TRACKED_IDENTITIES
      value: {{ int .Values.maxTrackedIdentities | toString | quote }}
    - name: SLUICE_FRAME_TIMEOUT
      value: {{ int .Values.frameTimeoutSeconds | toString | quote }}
    - name: SLUICE_PROXY_PROTOCOL
      value: {{ .Values.proxyProtocol | toString | quote }}
    - name: SLUICE_PROXY_PROTOCOL_FROM
      value: {{ .Values.proxyProtocolFrom | quote }}
    {{- if .Values.maxBufferedBytes }}
    - name: SLUICE_MAX_BUFFERED_BYTES
      value: {{ .Values.maxBufferedBytes | toString | quote }}
    {{- end }}
    - name: SLUICE_MAX_CONNECTIONS
      value: {{ int .Values.maxConnections | toString | quote }}
    - name: SLUICE_MAX_TRACKED_TOPICS
      value: {{ int .Values.maxTrackedTopics | toString | quote }}
    - name: SLUICE_MAX_TOPICS_PER_CONNECTION
      value: {{ int .Values.maxTopicsPerConnection | toString | quote }}
    {{- if .Values.dnsServers }}
    - name: SLUICE_DNS_SERVERS
      value: {{ .Values.dnsServers | quote }}
    {{- end }}
    {{- with .Values.cluster }}
    {{- if include "sluice.clusterStore" $ }}
    - name: SLUICE_CLUSTER_STORE
      value: {{ include "sluice.clusterStore" $ | quote }}
    - name: SLUICE_CLUSTER_ID
      value: {{ .id | default (include "sluice.fullname" $) | quote }}
    - name: SLUICE_CLUSTER_SYNC_INTERVAL
      value: {{ .syncInterval | quote }}
    - name: SLUICE_LIMITS_SOURCE
      value: {{ include "sluice.limitsSource" $ | quote }}
    {{- if or .password.existingSecret .bundledStore.enabled }}
    {{- /* Sluice has no file option for the store password, so it is the one Secret taken into
           the environment (never a value in the pod spec). */}}
    - name: SLUICE_CLUSTER_STORE_PASSWORD
      valueFrom:
        secretKeyRef:
          name: {{ include "sluice.storePasswordSecret" $ }}
          key: {{ include "sluice.storePasswordKey" $ }}
    {{- end }}
    {{- if .tls.caSecret }}
    - name: SLUICE_CLUSTER_STORE_CA
      value: {{ printf "/etc/sluice/redis-ca/%s" .tls.caSecretKey | quote }}
    {{- end }}
    {{- end }}
    {{- end }}
    - name: JAVA_TOOL_OPTIONS
      value: {{ .Values.jvmOptions | quote }}
    {{- with .Values.extraEnv }}
    {{- toYaml . | nindent 4 }}
    {{- end }}
  ports:
    {{- if include "sluice.pulsarEnabled" . }}
    - name: sluice-pulsar
      containerPort: {{ include "sluice.listenPort" . }}
      protocol: TCP
    {{- end }}
    {{- if include "sluice.kafkaEnabled" . }}
    - name: sluice-kafka
      containerPort: {{ include "sluice.kafkaListenPort" . }}
      protocol: TCP
    {{- if eq .Values.mode "proxy" }}
    {{- range .Values.kafka.nodeIds }}
    - name: {{ printf "kafka-node-%d" (int .) }}
      containerPort: {{ add (int $.Values.kafka.nodePortBase) (int .) }}
      protocol: TCP
    {{- end }}
    {{- end }}
    {{- end }}
    - name: sluice-admin
      containerPort: {{ $adminPort }}
      protocol: TCP
  livenessProbe:
    httpGet:
      path: /healthz
      port: {{ $adminPort }}
      scheme: {{ include "sluice.probeScheme" . }}
    {{- toYaml .Values.probes.liveness | nindent 4 }}
  readinessProbe:
    httpGet:
      path: /readyz
      port: {{ $adminPort }}
      scheme: {{ include "sluice.probeScheme" . }}
    {{- toYaml .Values.probes.readiness | nindent 4 }}
  resources:
    {{- toYaml .Values.resources | nindent 4 }}
  securityContext:
    {{- toYaml .Values.securityContext | nindent 4 }}
  volumeMounts:
    - name: sluice-data
      mountPath: /var/lib/sluice
    - name: sluice-tmp
      mountPath: /tmp
    - name: sluice-admin-token
      mountPath: {{ dir (include "sluice.adminTokenFile" .) }}
      readOnly: true
    {{- if .Values.tls.enabled }}
    - name: sluice-tls
      mountPath: {{ include "sluice.tlsDir" . }}
      readOnly: true
    {{- if .Values.tls.clientCa.secretName }}
    - name: sluice-client-ca
      mountPath: {{ include "sluice.clientCaDir" . }}
      readOnly: true
    {{- end }}
    {{- end }}
    {{- if .Values.upstreamTls.caSecretName }}
    - name: sluice-upstream-ca
      mountPath: {{ include "sluice.upstreamCaDir" . }}
      readOnly: true
    {{- end }}
    {{- if .Values.upstreamTls.clientCertSecretName }}
    - name: sluice-upstream-client-cert
      mountPath: {{ include "sluice.upstreamClientCertDir" . }}
      readOnly: true
    {{- end }}
    {{- if .Values.adminReadToken.existingSecret }}
    - name: sluice-admin-read-token
      mountPath: {{ dir (include "sluice.adminReadTokenFile" .) }}
      readOnly: true
    {{- end }}
    {{- if and .Values.cluster.store .Values.cluster.tls.caSecret }}
    - name: sluice-redis-ca
      mountPath: /etc/sluice/redis-ca
      readOnly: true
    {{- end }}
    {{- if and (include "sluice.kafkaEnabled" .) (eq .Values.mode "proxy") .Values.kafka.lookupSasl.mechanism }}
    - name: sluice-kafka-lookup-password
      mountPath: {{ dir (include "sluice.lookupPasswordFile" .) }}
      readOnly: true
    {{- end }}
{{- end }}

{{/*
Volumes: the limits ConfigMap (read-only seed), the writable limits directory, /tmp (the JVM's
scratch space; the root filesystem is read-only), the admin token and the TLS Secrets.
*/}}
{{- define "sluice.volumes" -}}
- name: sluice-limits
  configMap:
    name: {{ include "sluice.limitsConfigMapName" . }}
- name: sluice-data
  {{- if and (eq .Values.mode "proxy") .Values.persistence.existingClaim }}
  persistentVolumeClaim:
    claimName: {{ .Values.persistence.existingClaim }}
  {{- else }}
  emptyDir: {}
  {{- end }}
- name: sluice-tmp
  emptyDir: {}
- name: sluice-admin-token
  secret:
    secretName: {{ include "sluice.secretName" . }}
    items:
      - key: {{ include "sluice.secretKey" . }}
        path: {{ base (include "sluice.adminTokenFile" .) }}
{{- if .Values.tls.enabled }}
- name: sluice-tls
  secret:
    secretName: {{ include "sluice.tlsSecretName" . }}
{{- if .Values.tls.clientCa.secretName }}
- name: sluice-client-ca
  secret:
    secretName: {{ .Values.tls.clientCa.secretName }}
{{- end }}
{{- end }}
{{- if .Values.upstreamTls.caSecretName }}
- name: sluice-upstream-ca
  secret:
    secretName: {{ .Values.upstreamTls.caSecretName }}
{{- end }}
{{- if .Values.upstreamTls.clientCertSecretName }}
- name: sluice-upstream-client-cert
  secret:
    secretName: {{ .Values.upstreamTls.clientCertSecretName }}
{{- end }}
{{- if .Values.adminReadToken.existingSecret }}
- name: sluice-admin-read-token
  secret:
    secretName: {{ .Values.adminReadToken.existingSecret }}
    items:
      - key: {{ .Values.adminReadToken.existingSecretKey }}
        path: {{ base (include "sluice.adminReadTokenFile" .) }}
{{- end }}
{{- if and .Values.cluster.store .Values.cluster.tls.caSecret }}
- name: sluice-redis-ca
  secret:
    secretName: {{ .Values.cluster.tls.caSecret }}
{{- end }}
{{- if and (include "sluice.kafkaEnabled" .) (eq .Values.mode "proxy") .Values.kafka.lookupSasl.mechanism }}
- name: sluice-kafka-lookup-password
  secret:
    secretName: {{ .Values.kafka.lookupSasl.passwordSecretName }}
    items:
      - key: {{ .Values.kafka.lookupSasl.passwordSecretKey }}
        path: {{ base (include "sluice.lookupPasswordFile" .) }}
{{- end }}
{{- end }}
