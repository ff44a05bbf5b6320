package io.ratatosk.bench.ldbc.gen;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Writes update stream lines in LDBC's format ({@code scheduledStartTime|dependencyTime|type|fields...},
 * no header, lists joined by {@code ;}): IU1 into {@code updateStream_0_0_person.csv}, IU2-IU8 into
 * {@code updateStream_0_0_forum.csv}, each in the order written (the caller writes in time order).
 */
final class UpdateStreamWriter implements AutoCloseable {
    private final BufferedWriter person;
    private final BufferedWriter forum;
    private final StringBuilder line = new StringBuilder(256);
    private long lines;

    UpdateStreamWriter(Path dir) throws IOException {
        Files.createDirectories(dir);
        person = Files.newBufferedWriter(dir.resolve("updateStream_0_0_person.csv"), StandardCharsets.UTF_8);
        forum = Files.newBufferedWriter(dir.resolve("updateStream_0_0_forum.csv"), StandardCharsets.UTF_8);
    }

    /** One update of type {@code type} (1-8) scheduled at {@code time}, with its fields. */
    void write(long time, long dependencyTime, int type, Object... fields) throws IOException {
        line.setLength(0);
        line.append(time).append('|').append(dependencyTime).append('|').append(type);
        for (Object f : fields) {
            line.append('|').append(f);
        }
        line.append('\n');
        (type == 1 ? person : forum).append(line);
        lines++;
    }

    long lines() {
        return lines;
    }

    @Override
    public void close() throws IOException {
        try {
            person.close();
        } finally {
            forum.close();
        }
    }
}
