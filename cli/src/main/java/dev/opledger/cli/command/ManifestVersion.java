package dev.opledger.cli.command;

import picocli.CommandLine.IVersionProvider;

/** The version the jar's manifest names. */
class ManifestVersion implements IVersionProvider {

    @Override
    public String[] getVersion() {
        String version = ManifestVersion.class.getPackage().getImplementationVersion();
        return new String[] {"opledger-cli " + (version == null ? "(development build)" : version)};
    }
}
