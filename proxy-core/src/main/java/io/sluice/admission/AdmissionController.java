package io.sluice.admission;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;

/**
 * Admission control (docs/REFERENCE.md, "Admission control"): samples health signals, steps a {@link Breaker} per
 * {@link RequestType}, and answers whether a new request may go ahead.
 *
 * <p>Threads: {@link #sample} is called by one sampler thread every
 * {@link AdmissionSettings#sampleIntervalMillis()} ({@link AdmissionSampler} does that);
 * {@link #admit} is called from event loops and costs two volatile reads (plus one atomic add when
 * half-open or rejecting), never blocks and never allocates; {@link #update} and {@link #status}
 * may be called from any thread, such as the REST API's.
 *
 * <p>Settings swap atomically. A new mode applies to the very next {@link #admit}; thresholds and
 * breaker parameters apply from the next sample. When disabled, signals are still read (so the
 * status shows what enabling would see) but breakers are held CLOSED.
 */
public final class AdmissionController {

    /** How many breaker state changes {@link AdmissionStatus#recentTransitions()} keeps. */
    public static final int TRANSITION_HISTORY = 64;

    private static final Logger LOG = LoggerFactory.getLogger(AdmissionController.class);
    private static final Signal[] SIGNALS = Signal.values();
    private static final RequestType[] TYPES = RequestType.values();

    private final Map<Signal, SignalSource> sources;
    private final Clock wallClock;
    private volatile AdmissionSettings settings;
    private final Breaker[] breakers = new Breaker[TYPES.length];
    private final LongAdder[] rejections = new LongAdder[TYPES.length];
    private final LongAdder[] wouldBeRejections = new LongAdder[TYPES.length];

    // Guarded by this: written by sample, read by status.
    private final double[] values = new double[SIGNALS.length];
    private final Double[] sampledThresholds = new Double[SIGNALS.length];
    private final boolean[] breached = new boolean[SIGNALS.length];
    private final boolean[] failing = new boolean[SIGNALS.length];
    private final ArrayDeque<Transition> transitions = new ArrayDeque<>(TRANSITION_HISTORY);
    private Instant sampledAt;

    /** A controller on the system wall clock. */
    public AdmissionController(AdmissionSettings settings, Map<Signal, ? extends SignalSource> sources) {
        this(settings, sources, Clock.systemUTC());
    }

    /**
     * @param settings the initial settings
     * @param sources where each signal's value comes from; a signal without a source is unknown and never breaches
     * @param wallClock stamps transitions and samples for people to read; breaker timing uses {@link #sample}'s argument
     */
    public AdmissionController(
            AdmissionSettings settings, Map<Signal, ? extends SignalSource> sources, Clock wallClock) {
        this.settings = requireSettings(settings);
        this.sources = new EnumMap<>(Signal.class);
        this.sources.putAll(sources);
        this.wallClock = wallClock;
        Instant start = wallClock.instant();
        for (RequestType type : TYPES) {
            breakers[type.ordinal()] = new Breaker(type, start);
            rejections[type.ordinal()] = new LongAdder();
            wouldBeRejections[type.ordinal()] = new LongAdder();
        }
        Arrays.fill(values, Double.NaN);
    }

    /** The settings in force. */
    public AdmissionSettings settings() {
        return settings;
    }

    /** Replaces the settings live; see the class comment for when each part applies. */
    public void update(AdmissionSettings newSettings) {
        AdmissionSettings old = settings;
        settings = requireSettings(newSettings);
        if (old.mode() != newSettings.mode()) {
            LOG.info(
                    "Admission control mode {} -> {}",
                    old.mode().jsonName(),
                    newSettings.mode().jsonName());
        }
    }

    /**
     * Reads every signal and steps every breaker. Call from one thread, once per sample interval.
     *
     * @param nowNanos the current time on the {@link System#nanoTime()} scale
     */
    public synchronized void sample(long nowNanos) {
        AdmissionSettings current = settings;
        Breach worst = null;
        for (Signal signal : SIGNALS) {
            int i = signal.ordinal();
            double value = read(signal, nowNanos);
            Double threshold = current.threshold(signal);
            values[i] = value;
            sampledThresholds[i] = threshold;
            breached[i] = threshold != null && value > threshold;
            if (breached[i]) {
                Breach breach = new Breach(signal, value, threshold);
                if (worst == null || breach.severity() > worst.severity()) {
                    worst = breach;
                }
            }
        }
        sampledAt = wallClock.instant();
        for (Breaker breaker : breakers) {
            Transition transition = current.mode() == AdmissionMode.DISABLED
                    ? breaker.reset(sampledAt)
                    : breaker.step(worst, nowNanos, current, sampledAt);
            if (transition != null) {
                remember(transition);
            }
        }
    }

    /**
     * Whether a new request of {@code type} may go ahead; called from event loops. A rejection's
     * {@link AdmissionDecision#rejectMessage()} is the text for the {@code ServiceNotReady} error.
     * In monitor-only mode every request is admitted and the would-be rejections are counted.
     */
    public AdmissionDecision admit(RequestType type) {
        AdmissionSettings current = settings;
        if (current.mode() == AdmissionMode.DISABLED) {
            return AdmissionDecision.ADMIT;
        }
        Breaker breaker = breakers[type.ordinal()];
        BreakerState state = breaker.state();
        if (state == BreakerState.CLOSED
                || state == BreakerState.HALF_OPEN && breaker.admitsProbe(current.halfOpenAdmitShare())) {
            return AdmissionDecision.ADMIT;
        }
        if (current.mode() == AdmissionMode.MONITOR_ONLY) {
            wouldBeRejections[type.ordinal()].increment();
            return AdmissionDecision.ADMIT;
        }
        rejections[type.ordinal()].increment();
        return breaker.rejection();
    }

    /** The current state of {@code type}'s breaker, for the {@code sluice_admission_state} gauge. */
    public BreakerState state(RequestType type) {
        return breakers[type.ordinal()].state();
    }

    /** Requests of {@code type} rejected in enforced mode since start. */
    public long rejections(RequestType type) {
        return rejections[type.ordinal()].sum();
    }

    /** Requests of {@code type} that monitor-only mode admitted but enforced mode would have rejected, since start. */
    public long wouldBeRejections(RequestType type) {
        return wouldBeRejections[type.ordinal()].sum();
    }

    /** A consistent snapshot for the REST API. */
    public synchronized AdmissionStatus status() {
        EnumMap<RequestType, BreakerStatus> breakerStatus = new EnumMap<>(RequestType.class);
        for (RequestType type : TYPES) {
            Breaker breaker = breakers[type.ordinal()];
            BreakerState state = breaker.state();
            String reason =
                    state == BreakerState.CLOSED ? null : breaker.rejection().rejectMessage();
            breakerStatus.put(
                    type, new BreakerStatus(state, breaker.since(), rejections(type), wouldBeRejections(type), reason));
        }
        EnumMap<Signal, SignalReading> readings = new EnumMap<>(Signal.class);
        for (Signal signal : SIGNALS) {
            int i = signal.ordinal();
            readings.put(signal, new SignalReading(values[i], sampledThresholds[i], breached[i]));
        }
        return new AdmissionStatus(
                settings,
                sampledAt,
                breakerStatus,
                readings,
                transitions.stream().toList());
    }

    private double read(Signal signal, long nowNanos) {
        SignalSource source = sources.get(signal);
        if (source == null) {
            return Double.NaN;
        }
        int i = signal.ordinal();
        try {
            double value = source.read(nowNanos);
            failing[i] = false;
            return value;
        } catch (RuntimeException e) {
            // Log a failing source once, not every second.
            if (!failing[i]) {
                LOG.warn(
                        "Admission signal {} could not be read; treating it as unknown until it can",
                        signal.jsonName(),
                        e);
                failing[i] = true;
            }
            return Double.NaN;
        }
    }

    private void remember(Transition transition) {
        if (transitions.size() == TRANSITION_HISTORY) {
            transitions.removeFirst();
        }
        transitions.addLast(transition);
        LOG.info(
                "Admission breaker {} {} -> {}{}",
                transition.type(),
                transition.from(),
                transition.to(),
                transition.breach() == null ? "" : " (" + transition.breach().describe() + ")");
    }

    private static AdmissionSettings requireSettings(AdmissionSettings settings) {
        if (settings == null) {
            throw new IllegalArgumentException("settings must not be null");
        }
        return settings;
    }
}
