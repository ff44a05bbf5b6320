package io.ratatosk.bench.ldbc.run;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.ratatosk.bench.ldbc.ProgressOutput;
import io.ratatosk.bench.ldbc.gen.LdbcGenerator;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LdbcDatasetsTest {
    @TempDir
    Path dataCache;

    /**
     * The generator makes a graph of a whole number of persons, so two scales that round to one count are one graph:
     * generated:0.002 and generated:0.00204 (both 20 persons) were generated and loaded twice, into two data cache
     * folders, and their runs named as two data sets.
     */
    @Test
    void scalesOfTheSamePersonCountShareOneGraphAndOneName() throws IOException {
        double smallest = (double) LdbcGenerator.MIN_PERSONS / LdbcGenerator.PERSONS_AT_SCALE_1;
        String asked = "generated:" + LdbcDatasets.scaleText(smallest);
        String roundsToIt = "generated:" + LdbcDatasets.scaleText(smallest * 1.02);
        LdbcDatasets.Prepared first = LdbcDatasets.prepare(asked, dataCache, 42, false, ProgressOutput.none());
        LdbcDatasets.Prepared second = LdbcDatasets.prepare(roundsToIt, dataCache, 42, false, ProgressOutput.none());
        assertEquals(first.storeDir(), second.storeDir(), roundsToIt + " loaded a store of its own");
        assertEquals(first.name(), second.name(), roundsToIt + " is named as another data set");
        try (Stream<Path> entries = Files.list(dataCache)) {
            List<Path> folders = entries.filter(Files::isDirectory).toList();
            assertEquals(1, folders.size(), "one graph, one data cache folder: " + folders);
        }
    }
}
