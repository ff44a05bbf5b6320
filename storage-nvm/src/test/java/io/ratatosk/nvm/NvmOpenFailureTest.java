package io.ratatosk.nvm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.ratatosk.pagecache.ChildJvm;
import io.ratatosk.pagecache.MachineMemoryExceededException;
import io.ratatosk.pagecache.PageCache;
import io.ratatosk.pagecache.PageCacheConfig;
import io.ratatosk.pagecache.internal.MachineMemory;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A page cache whose NVM tier cannot be had (here: too little heap for its slots' index) fails to open with an
 * error naming {@code pagecache.nvm.capacity}, and keeps none of the tier's memory: the device's off-heap slots
 * were allocated before the index, and a store that failed in its constructor was never closed, so each failed
 * open leaked the whole capacity.
 */
class NvmOpenFailureTest {
    @TempDir
    Path dir;

    @Test
    void aTierTooBigForTheHeapFailsNamingItsFlagAndKeepsNoDeviceMemory() throws Exception {
        ChildJvm.Result child = ChildJvm.run(dir, "16m", OpenTooBig.class);
        assertEquals(0, child.status(), child.output());
    }

    /**
     * A capacity larger than the machine is refused as such, before the tier takes anything: the tier made its heap
     * bookkeeping (some 36 bytes a slot: 9 GiB at 1 TiB of 4 KiB slots) before its device checked the machine, so the
     * host's heap failed first, and the open said to give the JVM more heap, which only got the heap allocated and
     * zeroed before the same capacity was refused (or the host killed, in a container whose limit the heap exceeds).
     */
    @Test
    void aTierLargerThanTheMachineIsRefusedAsSuchBeforeItTakesAnyHeap() {
        NvmDeviceConfig config = NvmDeviceConfig.builder(4096).capacityBytes(1L << 40).injectLatency(false).build();
        long machine = MachineMemory.total().orElse(Long.MAX_VALUE);
        assumeTrue(machine < 1L << 40, "a machine of 1 TiB or more would allocate the tier");
        MachineMemoryExceededException e = assertThrows(MachineMemoryExceededException.class,
            () -> new NvmSwapStore(config, new InMemoryFiles()));
        assertTrue(e.getMessage().contains(NvmDeviceConfig.CAPACITY + "=" + (1L << 40))
            && e.getMessage().contains(String.valueOf(machine)), e.getMessage());
    }

    /**
     * In a JVM of 16 MiB heap: opens a cache over 1M NVM slots of 512 bytes (an index of some 36 MiB), three times;
     * then one over 64Ki slots on 64Ki devices (their queues some 28 MiB).
     */
    static final class OpenTooBig {
        public static void main(String[] args) {
            PageCacheConfig config = PageCacheConfig.parse(Map.of("pagecache.memory", "16k", "pagecache.page_size", "512",
                "pagecache.swap", "nvm", "pagecache.nvm.capacity", "512m", "pagecache.nvm.inject_latency", "false",
                "pagecache.jmx.enabled", "false", "pagecache.warmup.enabled", "false"));
            int failures = 0;
            for (int i = 0; i < 3; i++) {
                try (PageCache cache = PageCache.open(config)) {
                    System.out.println("opened, which 16 MiB of heap should not allow");
                    System.exit(2);
                } catch (Throwable t) {
                    if (!String.valueOf(t.getMessage()).contains("pagecache.nvm.capacity=536870912")) {
                        System.out.println("the failure does not name pagecache.nvm.capacity: " + t);
                        failures++;
                    }
                }
                if (NvmDevice.liveBytes() != 0) {
                    System.out.println("after failed open " + (i + 1) + ", " + NvmDevice.liveBytes()
                        + " bytes of emulated NVM are still allocated");
                    failures++;
                }
            }
            // 64Ki slots (an index that fits) on as many devices: their queues do not
            PageCacheConfig manyDevices = PageCacheConfig.parse(Map.of("pagecache.memory", "16k", "pagecache.page_size", "512",
                "pagecache.swap", "nvm", "pagecache.nvm.capacity", "32m", "pagecache.nvm.devices", "65536",
                "pagecache.nvm.inject_latency", "false", "pagecache.jmx.enabled", "false", "pagecache.warmup.enabled", "false"));
            try (PageCache cache = PageCache.open(manyDevices)) {
                System.out.println("opened 65536 NVM devices, which 16 MiB of heap should not allow");
                System.exit(2);
            } catch (Throwable t) {
                if (!String.valueOf(t.getMessage()).contains("pagecache.nvm.devices=65536")) {
                    System.out.println("the failure does not name pagecache.nvm.devices: " + t);
                    failures++;
                }
            }
            if (NvmDevice.liveBytes() != 0) {
                System.out.println("after the failed open with 65536 devices, " + NvmDevice.liveBytes() + " bytes of NVM are allocated");
                failures++;
            }
            System.exit(failures == 0 ? 0 : 1);
        }
    }
}
