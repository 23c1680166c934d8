package io.sluice.pulsar.proxy;

import io.sluice.quota.QuotaDecision;

import java.util.Locale;

/**
 * The {@code reason} of a throttle: which rate was exceeded, such as {@code publish_messages} or
 * {@code dispatch_bytes}. Deliberately without the limit's value, so that a metrics label made
 * from it keeps a small, fixed set of values whatever the limits are changed to.
 */
final class ThrottleReasons {

    private ThrottleReasons() {
    }

    static String of(QuotaDecision decision) {
        return decision.direction().name().toLowerCase(Locale.ROOT) + "_"
                + decision.dimension().name().toLowerCase(Locale.ROOT);
    }
}
