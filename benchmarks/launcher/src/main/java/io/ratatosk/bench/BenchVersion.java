package io.ratatosk.bench;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;
import picocli.CommandLine;

/**
 * What {@code ./bench -V} (and every command's {@code -V}) prints: the version Maven wrote into the jar, and the Java
 * that runs it. Every command's help offers -V; without a provider it printed nothing and exited 0.
 */
final class BenchVersion implements CommandLine.IVersionProvider {
    /** Where the jar plugin puts the launcher's version. */
    private static final String POM_PROPERTIES = "/META-INF/maven/io.ratatosk/bench-launcher/pom.properties";

    @Override
    public String[] getVersion() {
        return new String[] {"Ratatosk bench " + version(),
            "Java " + System.getProperty("java.version") + " (" + System.getProperty("java.vendor") + ")"};
    }

    /** The launcher's version, or a sentence saying why it is not known (run from classes, not the jar). */
    static String version() {
        try (InputStream in = BenchVersion.class.getResourceAsStream(POM_PROPERTIES)) {
            if (in != null) {
                Properties properties = new Properties();
                properties.load(in);
                String version = properties.getProperty("version");
                if (version != null && !version.isBlank()) {
                    return version;
                }
            }
        } catch (IOException e) {
            // said below
        }
        return "(version unknown: not run from the ./bench jar)";
    }
}
