package io.ratatosk.bench.jmh;

import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.neo4j.kernel.lifecycle.LifecycleAdapter;
import org.neo4j.scheduler.ActiveGroup;
import org.neo4j.scheduler.CallableExecutor;
import org.neo4j.scheduler.FailedJobRun;
import org.neo4j.scheduler.Group;
import org.neo4j.scheduler.JobHandle;
import org.neo4j.scheduler.JobMonitoringParams;
import org.neo4j.scheduler.JobScheduler;
import org.neo4j.scheduler.MonitoredJobExecutor;
import org.neo4j.scheduler.MonitoredJobInfo;
import org.neo4j.scheduler.SchedulerThreadFactoryFactory;

/**
 * The smallest {@link JobScheduler} a standalone MuninnPageCache needs: it only schedules its
 * evictor, prefetchers and parallel flush helpers as one-off jobs, so each job gets a daemon thread
 * from a cached pool. Delayed and recurring jobs are not needed and are refused.
 */
final class PeerJobScheduler extends LifecycleAdapter implements JobScheduler {
    private final AtomicInteger threadNumber = new AtomicInteger();
    private final ExecutorService threads = Executors.newCachedThreadPool(this::daemon);

    private Thread daemon(Runnable job) {
        Thread t = new Thread(job, "muninn-peer-" + threadNumber.incrementAndGet());
        t.setDaemon(true);
        return t;
    }

    @Override
    public void setTopLevelGroupName(String name) {
    }

    @Override
    public void setParallelism(Group group, int parallelism) {
    }

    @Override
    public void setThreadFactory(Group group, SchedulerThreadFactoryFactory factory) {
    }

    @Override
    public CallableExecutor executor(Group group) {
        return new CallableExecutor() {
            @Override
            public <T> Future<T> submit(Callable<T> job) {
                return threads.submit(job);
            }

            @Override
            public void execute(Runnable job) {
                threads.execute(job);
            }
        };
    }

    @Override
    public MonitoredJobExecutor monitoredJobExecutor(Group group) {
        return (params, job) -> threads.execute(job);
    }

    @Override
    public ThreadFactory threadFactory(Group group) {
        return this::daemon;
    }

    @Override
    public <T> JobHandle<T> schedule(Group group, JobMonitoringParams params, Callable<T> job) {
        return new FutureHandle<>(threads.submit(job));
    }

    @Override
    public JobHandle<?> schedule(Group group, Runnable job) {
        return new FutureHandle<>(threads.submit(job));
    }

    @Override
    public JobHandle<?> schedule(Group group, JobMonitoringParams params, Runnable job) {
        return new FutureHandle<>(threads.submit(job));
    }

    @Override
    public JobHandle<?> schedule(Group group, Runnable job, long delay, TimeUnit unit) {
        throw notNeeded();
    }

    @Override
    public JobHandle<?> schedule(Group group, JobMonitoringParams params, Runnable job, long delay, TimeUnit unit) {
        throw notNeeded();
    }

    @Override
    public JobHandle<?> scheduleRecurring(Group group, Runnable job, long period, TimeUnit unit) {
        throw notNeeded();
    }

    @Override
    public JobHandle<?> scheduleRecurring(Group group, JobMonitoringParams params, Runnable job, long period, TimeUnit unit) {
        throw notNeeded();
    }

    @Override
    public JobHandle<?> scheduleRecurring(Group group, Runnable job, long initialDelay, long period, TimeUnit unit) {
        throw notNeeded();
    }

    @Override
    public JobHandle<?> scheduleRecurring(Group group, JobMonitoringParams params, Runnable job, long initialDelay,
                                          long period, TimeUnit unit) {
        throw notNeeded();
    }

    private static UnsupportedOperationException notNeeded() {
        return new UnsupportedOperationException("delayed and recurring jobs are not used by a standalone MuninnPageCache");
    }

    @Override
    public Stream<ActiveGroup> activeGroups() {
        return Stream.empty();
    }

    @Override
    public List<MonitoredJobInfo> getMonitoredJobs() {
        return List.of();
    }

    @Override
    public List<FailedJobRun> getFailedJobRuns() {
        return List.of();
    }

    @Override
    public void shutdown() {
        close();
    }

    @Override
    public void close() {
        threads.shutdownNow();
    }

    private static final class FutureHandle<T> implements JobHandle<T> {
        private final Future<T> future;

        FutureHandle(Future<T> future) {
            this.future = future;
        }

        @Override
        public void cancel() {
            future.cancel(true);
        }

        @Override
        public void waitTermination() throws InterruptedException, ExecutionException {
            future.get();
        }

        @Override
        public void waitTermination(long timeout, TimeUnit unit)
            throws InterruptedException, ExecutionException, TimeoutException {
            future.get(timeout, unit);
        }

        @Override
        public T get() throws ExecutionException, InterruptedException {
            return future.get();
        }
    }
}
