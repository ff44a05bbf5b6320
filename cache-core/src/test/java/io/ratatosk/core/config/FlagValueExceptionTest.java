package io.ratatosk.core.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import org.junit.jupiter.api.Test;

class FlagValueExceptionTest {
    private static final Flag USAGE = Flag.integer("pagecache.test.usage", "1", 1, 7, "test");

    /**
     * An exception that crosses a serialization boundary (RMI, a remote JMX call, a test runner's fork) keeps its
     * problems: the list was transient, and problems() came back null after the round trip, while the message still
     * named them.
     */
    @Test
    void theProblemsSurviveSerialization() throws Exception {
        FlagValueException refused = assertThrows(FlagValueException.class, () -> USAGE.parse("9"));
        FlagValueException copy = roundTrip(refused);
        assertEquals(refused.getMessage(), copy.getMessage());
        assertEquals(refused.problems(), copy.problems());
        assertEquals("9", copy.problems().get(0).value());
    }

    private static FlagValueException roundTrip(FlagValueException e) throws IOException, ClassNotFoundException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(e);
        }
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
            return (FlagValueException) in.readObject();
        }
    }
}
