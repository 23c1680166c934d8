package io.sluice.server;

import java.io.PrintStream;
import java.util.HashMap;
import java.util.Map;

/** Option parsing for the tests of other options than the admin API's access. */
final class OpenAdminParse {

    private OpenAdminParse() {}

    /**
     * As {@link SluiceMain#parse}, accepting an admin API without a token ({@code --admin-insecure}
     * from the environment); the tests of that refusal call {@code SluiceMain.parse} themselves.
     */
    static SluiceConfig parse(String[] args, Map<String, String> env, PrintStream out) {
        Map<String, String> accepting = new HashMap<>(env);
        accepting.putIfAbsent("SLUICE_ADMIN_INSECURE", "true");
        return SluiceMain.parse(args, accepting, out);
    }
}
