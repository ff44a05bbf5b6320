package io.ratatosk.bench.sim;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;

/** Jackson's parse errors as one line for a tool's message: what is wrong and where, without its "Source: REDACTED". */
public final class JsonErrors {
    private JsonErrors() {
    }

    /** {@code e}'s own message, its first line, without a second location, then its line and column where known. */
    public static String oneLine(JsonProcessingException e) {
        String what = e.getOriginalMessage().lines().findFirst().orElse("")
            .replaceFirst(" \\(start marker at .*", "");
        JsonLocation at = e.getLocation();
        return at == null ? what : what + " (line " + at.getLineNr() + ", column " + at.getColumnNr() + ")";
    }
}
