package io.sluice.quota;

import io.sluice.limits.Direction;
import io.sluice.limits.OnExceed;
import io.sluice.limits.ScopeRef;

import java.math.BigDecimal;
import java.util.Locale;

/**
 * Why a message was refused: filled by {@link QuotaPath#tryAcquire} on refusal. Mutable and
 * reused so the hot path allocates nothing; each instance belongs to one caller (one event loop
 * or one connection) and is not thread-safe.
 */
public final class QuotaDecision {

    /** The {@link #reason()} of a throttle by an adaptive limit's lowered rate. */
    public static final String ADAPTIVE_REASON = "adaptive";

    private long waitNanos;
    private Direction direction;
    private ScopeRef scope;
    private Dimension dimension;
    private double rate;
    private OnExceed onExceed;
    private boolean adapted;

    void refuse(long waitNanos, BucketKey exceeded, double limitRate, OnExceed onExceed, boolean adapted) {
        this.adapted = adapted;
        this.waitNanos = waitNanos;
        this.direction = exceeded.direction();
        this.scope = exceeded.scope();
        this.dimension = exceeded.dimension();
        this.rate = limitRate;
        this.onExceed = onExceed;
    }

    /** Nanoseconds until every exceeded scope admits again. */
    public long waitNanos() {
        return waitNanos;
    }

    /** {@link #waitNanos} rounded up to whole milliseconds, so a client retrying after it is not too early. */
    public long retryAfterMillis() {
        return (waitNanos + 999_999) / 1_000_000;
    }

    /** The direction of the refused traffic. */
    public Direction direction() {
        return direction;
    }

    /** The most specific exceeded scope; its limit decides the action. */
    public ScopeRef scope() {
        return scope;
    }

    /** Whether the exceeded scope's message or byte rate is exceeded. */
    public Dimension dimension() {
        return dimension;
    }

    /**
     * The exceeded limit, in {@link #dimension()} per second (a group's joins a minute divided by 60), as the limits document sets it (for
     * all Sluices that share limits together, not this Sluice's share of it).
     */
    public double rate() {
        return rate;
    }

    /** Whether the exceeded scope's adaptive limit had lowered its rate below the configured one. */
    public boolean adapted() {
        return adapted;
    }

    /**
     * Which rate is exceeded, as the {@code reason} of a throttle: {@code publish_messages},
     * {@code dispatch_bytes} and so on, or {@code adaptive} when an adaptive limit had lowered the
     * rate that held it. Deliberately without the limit's value, so that a metrics label made from
     * it keeps a small, fixed set of values whatever the limits are changed to.
     */
    public String reason() {
        if (adapted) {
            return ADAPTIVE_REASON;
        }
        return direction.name().toLowerCase(Locale.ROOT) + "_"
                + dimension.name().toLowerCase(Locale.ROOT);
    }

    /** The action the exceeded scope's limit asks for. */
    public OnExceed onExceed() {
        return onExceed;
    }

    /**
     * The reject message of docs/REFERENCE.md: {@code throttled: <scope> <name> exceeds <limit>; retry after <ms> ms},
     * e.g. {@code throttled: topic persistent://public/default/orders exceeds 500.0 msg/s; retry after 12 ms}.
     */
    public String rejectMessage() {
        return "throttled: " + scope + " exceeds " + (adapted ? "its adaptive rate (limit " : "")
                + plain(dimension.inRateUnit(rate))
                + " " + dimension.rateUnit() + (adapted ? ", lowered while the broker is slow)" : "") + "; retry after "
                + retryAfterMillis() + " ms";
    }

    /** {@code 500.0}, {@code 1048576.0}, {@code 0.5}: never exponent notation, which people misread. */
    private static String plain(double value) {
        String text = BigDecimal.valueOf(value).stripTrailingZeros().toPlainString();
        return text.indexOf('.') < 0 ? text + ".0" : text;
    }
}
