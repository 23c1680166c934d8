package io.sluice.frontend;

import io.sluice.limits.ProtocolScopes;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.ServiceLoader;
import java.util.Set;

/**
 * One protocol's registration with Sluice: the options it adds to the command line, how it makes
 * its {@linkplain FrontEndConfig section of the configuration} from them, which option asks for
 * TLS to its upstream, and its scope kinds. Everything else the server learns from the
 * {@link FrontEndConfig} it returns, which opens the {@link FrontEnd}.
 *
 * <p>The server finds factories with {@link ServiceLoader}: a front-end module lists its own in
 * {@code src/main/resources/META-INF/services/io.sluice.frontend.FrontEndFactory} (a test module in
 * {@code src/test/resources/...}), and {@code sluice.jar} holds every front end its module
 * depends on. Nothing in the server names a protocol. A new front end, a line-based protocol say,
 * is one module:
 *
 * <ol>
 *   <li>its connection on the relay's skeleton and its channel initializer;
 *   <li>its scope kinds, each declared once as a {@link io.sluice.limits.ScopeKind} and gathered in
 *       the {@link ProtocolScopes} that {@link #scopes()} returns: the limits document, the admin
 *       routes, the OpenAPI document, the CLI's scopes and the limits metrics follow from them;
 *   <li>a record implementing {@link FrontEndConfig} ({@code protocol()} {@code "line"}, its listen
 *       address and upstream), whose {@code open} makes its {@link FrontEnd};
 *   <li>this factory: {@code --line-upstream} (its {@link #enablingOption()}) and
 *       {@code --line-listen} as {@link FrontEndOption}s, and a {@link #configure} that returns
 *       null without {@code --line-upstream};
 *   <li>the one line in {@code META-INF/services/io.sluice.frontend.FrontEndFactory}.
 * </ol>
 *
 * Implementations are stateless and have a public no-argument constructor.
 */
public interface FrontEndFactory {

    /** Its options, each with its {@linkplain FrontEndOption#helpOrder() place} in {@code --help}. */
    List<FrontEndOption> options();

    /**
     * The option that starts it, one of {@link #options()}: {@code --upstream}, {@code --kafka-upstream}.
     * At least one front end's must be set, or Sluice says {@code missing --upstream (SLUICE_UPSTREAM)
     * or --kafka-upstream (SLUICE_KAFKA_UPSTREAM): at least one front end is required}.
     */
    String enablingOption();

    /**
     * When Sluice speaks TLS to its upstream, in words that finish {@code --upstream-tls-ca: used
     * only when ...}: {@code --upstream is pulsar+ssl://}, {@code with --kafka-upstream-tls}; null
     * when its upstream never speaks TLS.
     */
    String upstreamTlsCondition();

    /**
     * Its section of the configuration from the merged option values, or null when its
     * {@linkplain #enablingOption() enabling option} is not set.
     *
     * @throws IllegalArgumentException one line naming the option whose value cannot be used,
     *     as {@link OptionValues#parse} words it; also for an option of a front end that is off
     *     but needs it on ({@code invalid --kafka-upstream-tls: needs --kafka-upstream})
     */
    FrontEndConfig configure(OptionValues values);

    /**
     * The scope kinds limits of its traffic are set at (its topics, namespaces, clients...), as it
     * declares them; the server gathers every installed front end's in its scope catalogue. The
     * proxy-wide scope is everyone's and not among them.
     */
    ProtocolScopes scopes();

    /**
     * Every factory on the class path, in the {@code --help} order of their enabling options.
     *
     * @throws IllegalStateException when there is none, or two enabling options are the same
     */
    static List<FrontEndFactory> installed() {
        List<FrontEndFactory> factories = new ArrayList<>();
        ServiceLoader.load(FrontEndFactory.class).forEach(factories::add);
        if (factories.isEmpty()) {
            throw new IllegalStateException(
                    "no front end on the class path (META-INF/services/" + FrontEndFactory.class.getName() + ")");
        }
        Set<String> enabling = new HashSet<>();
        for (FrontEndFactory factory : factories) {
            if (!enabling.add(factory.enablingOption())) {
                throw new IllegalStateException("two front ends start with " + factory.enablingOption());
            }
        }
        factories.sort(Comparator.comparingInt(FrontEndFactory::helpOrderOfEnablingOption));
        return List.copyOf(factories);
    }

    private int helpOrderOfEnablingOption() {
        return options().stream()
                .filter(option -> option.name().equals(enablingOption()))
                .findFirst()
                .orElseThrow(() -> new IllegalStateException(
                        getClass().getName() + " does not declare its enabling option " + enablingOption()))
                .helpOrder();
    }
}
