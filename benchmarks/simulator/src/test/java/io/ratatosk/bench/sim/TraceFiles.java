package io.ratatosk.bench.sim;

import com.github.luben.zstd.ZstdOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.zip.GZIPOutputStream;
import org.apache.commons.compress.compressors.bzip2.BZip2CompressorOutputStream;
import org.tukaani.xz.LZMA2Options;
import org.tukaani.xz.XZOutputStream;

/** Small trace files in every format, written with the compression libraries, for the tests. */
final class TraceFiles {
    private TraceFiles() {
    }

    static byte[] gzip(byte[] data) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (OutputStream gz = new GZIPOutputStream(out)) {
            gz.write(data);
        }
        return out.toByteArray();
    }

    static byte[] zstd(byte[] data) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (OutputStream z = new ZstdOutputStream(out)) {
            z.write(data);
        }
        return out.toByteArray();
    }

    static byte[] xz(byte[] data) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (OutputStream x = new XZOutputStream(out, new LZMA2Options())) {
            x.write(data);
        }
        return out.toByteArray();
    }

    static byte[] bzip2(byte[] data) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (OutputStream b = new BZip2CompressorOutputStream(out)) {
            b.write(data);
        }
        return out.toByteArray();
    }

    static byte[] text(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    static byte[] ints(long... keys) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        DataOutputStream d = new DataOutputStream(out);
        for (long k : keys) {
            d.writeInt((int) k);
        }
        return out.toByteArray();
    }

    static byte[] longs(long... keys) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        DataOutputStream d = new DataOutputStream(out);
        for (long k : keys) {
            d.writeLong(k);
        }
        return out.toByteArray();
    }

    static byte[] truncate(byte[] data, int dropBytes) {
        return Arrays.copyOf(data, data.length - dropBytes);
    }

    static Path write(Path folder, String relative, byte[] bytes) throws IOException {
        Path file = folder.resolve(relative);
        Files.createDirectories(file.getParent());
        Files.write(file, bytes);
        return file;
    }

    /** A LIRS text trace of the keys, one per line, gzip-compressed. */
    static Path lirs(Path folder, String name, int... keys) throws IOException {
        StringBuilder s = new StringBuilder();
        for (int k : keys) {
            s.append(k).append('\n');
        }
        return write(folder, "lirs/" + name, gzip(text(s.toString())));
    }
}
