package io.sluice.admin;

import io.sluice.adaptive.AdaptiveScope;
import io.sluice.admin.adaptive.AdaptiveResource;
import io.sluice.admin.admission.AdmissionResource;
import io.sluice.admin.audit.AuditTrail;
import io.sluice.admin.cluster.ClusterResource;
import io.sluice.admin.http.RouteTable;
import io.sluice.admin.limits.ConnectionLimitsResource;
import io.sluice.admin.limits.LimitsDocumentResource;
import io.sluice.admin.limits.ScopeLimitResource;
import io.sluice.admin.limits.ScopeRoute;
import io.sluice.admin.limits.ScopesResource;
import io.sluice.admin.metrics.MetricsResource;
import io.sluice.admin.openapi.OpenApiResource;
import io.sluice.admin.probe.ProbeResource;
import io.sluice.admin.status.ThrottledResource;
import io.sluice.admin.status.TopicsResource;
import io.sluice.admission.AdmissionController;
import io.sluice.cluster.ClusterStatus;
import io.sluice.limits.LimitsStore;
import io.sluice.relay.IncompleteFrames;
import io.sluice.relay.ProxyStats;
import io.sluice.status.ThrottleLedger;
import io.sluice.status.TopicActivity;

import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

import static io.netty.handler.codec.http.HttpMethod.DELETE;
import static io.netty.handler.codec.http.HttpMethod.GET;
import static io.netty.handler.codec.http.HttpMethod.PUT;

/**
 * The one route table of the admin server (docs/REFERENCE.md, "Admin REST API"). Each scope kind of
 * the limits store's catalogue has its route ({@link ScopeRoute}). The served OpenAPI document
 * describes exactly these routes as they are with admission control; {@code OpenApiDocumentTest}
 * fails when the two disagree. Without admission control, {@code /api/v1/admission} is not a route
 * (404).
 */
final class AdminRoutes {

    private AdminRoutes() {}

    /**
     * @param admission         admission control, or {@code null} when the proxy runs without it
     * @param tlsReloadFailures the process's failed reloads of TLS files
     * @param incompleteFrames  the bytes of incomplete client frames, or {@code null}
     * @param logEventsDropped  log events the logging backend dropped, or {@code null}
     * @param audit             records the changes of limits and admission settings
     */
    static RouteTable table(
            LimitsStore limits,
            ThrottleLedger ledger,
            TopicActivity activity,
            List<ProxyStats> stats,
            LongSupplier tlsReloadFailures,
            AdmissionController admission,
            BooleanSupplier ready,
            int metricsMaxTopics,
            int metricsMaxIdentities,
            Supplier<ClusterStatus> cluster,
            Supplier<List<AdaptiveScope>> adaptive,
            IncompleteFrames incompleteFrames,
            LongSupplier logEventsDropped,
            AuditTrail audit) {
        LimitsDocumentResource document = new LimitsDocumentResource(limits);
        ConnectionLimitsResource connection = new ConnectionLimitsResource(limits);
        ThrottledResource throttled = new ThrottledResource(ledger);
        TopicsResource topicFigures = new TopicsResource(activity);
        MetricsResource metrics = MetricsResource.forProxy(
                limits,
                ledger,
                activity,
                stats,
                tlsReloadFailures,
                admission,
                metricsMaxTopics,
                metricsMaxIdentities,
                ready,
                cluster,
                adaptive,
                incompleteFrames,
                logEventsDropped);
        ClusterResource clusterStatus = new ClusterResource(cluster, limits);
        ProbeResource probes = new ProbeResource(ready);
        OpenApiResource openApi = new OpenApiResource(limits.catalogue());
        ScopesResource scopes = new ScopesResource(limits.catalogue());

        RouteTable.Builder table = RouteTable.builder()
                .add(GET, ScopeRoute.LIMITS, document::get)
                .add(PUT, ScopeRoute.LIMITS, audit.audited(document::put, document::get));
        for (ScopeRoute route : ScopeRoute.of(limits.catalogue())) {
            ScopeLimitResource resource = new ScopeLimitResource(limits, route);
            table.add(GET, route.path(), resource::get)
                    .add(PUT, route.path(), audit.audited(resource::put, resource::get))
                    .add(DELETE, route.path(), audit.audited(resource::delete, resource::get));
        }
        table.add(GET, ScopesResource.CONNECTION_PATH, connection::get)
                .add(PUT, ScopesResource.CONNECTION_PATH, audit.audited(connection::put, connection::get))
                .add(GET, "/api/v1/scopes", scopes::get)
                .add(GET, "/api/v1/throttled", throttled::get)
                .add(GET, "/api/v1/topics", topicFigures::get)
                .add(GET, "/api/v1/cluster", clusterStatus::get)
                .add(GET, "/api/v1/adaptive", new AdaptiveResource(adaptive)::get)
                .add(GET, "/api/v1/audit", audit::get)
                .add(GET, "/api/v1/openapi.json", openApi::get)
                .add(GET, "/metrics", metrics::get)
                .probe("/healthz", probes::health)
                .probe("/readyz", probes::ready);
        if (admission != null) {
            AdmissionResource admissionControl = new AdmissionResource(admission);
            table.add(GET, "/api/v1/admission", admissionControl::get)
                    .add(PUT, "/api/v1/admission", audit.audited(admissionControl::put, admissionControl::get));
        }
        return table.build();
    }
}
