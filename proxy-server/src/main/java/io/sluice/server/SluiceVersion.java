package io.sluice.server;

import picocli.CommandLine.IVersionProvider;

/** The version printed by {@code --version}, from the jar's manifest. */
final class SluiceVersion implements IVersionProvider {

    @Override
    public String[] getVersion() {
        String version = SluiceVersion.class.getPackage().getImplementationVersion();
        return new String[] {"sluice " + (version == null ? "development build" : version)};
    }
}
