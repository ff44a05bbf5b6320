package io.ratatosk.nvm;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;

import io.ratatosk.pagecache.ChildJvm;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link NvmDevice#read} and {@link NvmDevice#write} take raw addresses (the class is public): a null or near-null
 * address, or a range wrapping past the address space's end, was copied from or to as it was, and the JVM crashed
 * (SIGSEGV). Each is refused now with an {@link IllegalArgumentException} naming the address. Run in a JVM of its own:
 * on the code before, the crash would have taken the test's JVM with it.
 */
class NvmDeviceAddressTest {
    @TempDir
    Path dir;

    @Test
    void anAddressNoCallerCanOwnIsRefusedNamingIt() throws Exception {
        ChildJvm.Result child = ChildJvm.run(dir, "64m", BadAddresses.class);
        assertEquals(0, child.status(), child.output());
    }

    static final class BadAddresses {
        public static void main(String[] args) throws Exception {
            int page = 512;
            int failures = 0;
            long[] addresses = {0L, 8L, 4095L, -page / 2};
            try (NvmDevice device = new NvmDevice(NvmDeviceConfig.builder(page).slots(4).injectLatency(false).build());
                 OffHeapPages pages = new OffHeapPages(page)) {
                long buffer = pages.allocate();
                pages.fill(buffer, 7);
                device.write(0, buffer, page);
                for (long address : addresses) {
                    for (boolean write : new boolean[] {false, true}) {
                        try {
                            if (write) {
                                device.write(1, address, page);
                            } else {
                                device.read(0, address, page);
                            }
                            System.out.println((write ? "write" : "read") + " from 0x" + Long.toHexString(address)
                                + " was accepted");
                            failures++;
                        } catch (IllegalArgumentException e) {
                            if (!e.getMessage().contains("address=0x" + Long.toHexString(address))) {
                                System.out.println("the refusal does not name the address: " + e.getMessage());
                                failures++;
                            }
                        }
                    }
                }
                device.read(0, buffer, page); // a good address still works, and slot 0 kept its page
                if (pages.firstMismatch(buffer, 7) != -1) {
                    System.out.println("slot 0 lost its page");
                    failures++;
                }
            }
            System.exit(failures == 0 ? 0 : 1);
        }
    }
}
