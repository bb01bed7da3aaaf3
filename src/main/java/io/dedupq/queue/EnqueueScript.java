package io.dedupq.queue;

import io.vertx.mutiny.redis.client.Response;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * enqueue.lua's arguments and reply, the only place that knows their positions: callers build a
 * {@link Call} and read a {@link Reply} by name.
 */
public final class EnqueueScript {

    /** Arguments per task: id, digest, envelope, bucket; a call whose tasks have no common type adds each one's. */
    private static final int TASK_FIELDS = 4;
    private static final int ANSWER_FIELDS = 3;

    private EnqueueScript() {
    }

    /** One task of a call: validated, with its final id, payload digest, envelope JSON and priority level. */
    public record Task(String id, String type, String digest, String envelope, int priority) {

        /** A task at the default priority. */
        public Task(String id, String type, String digest, String envelope) {
            this(id, type, digest, envelope, Priority.DEFAULT);
        }
    }

    /** What enqueue.lua did with one task. */
    public enum Verdict {
        /** a new id: pushed, its hash written */
        QUEUED,
        /** a known id with the same type and payload, or one only its dedup record remembers */
        DUPLICATE,
        /** a known id with another type or payload */
        CONFLICT
    }

    /** One task's answer: its verdict and the task's status now ({@code queued} for a new one). */
    public record Answer(Verdict verdict, String status) {

        static final Answer QUEUED = new Answer(Verdict.QUEUED, "queued");
    }

    /**
     * One call for {@code partition}, its tasks in submission order, {@code nowMillis} as their
     * enqueue time; {@code dedupBuckets} and {@code dedupWindowMillis} are the queue's, for a
     * partition without dedup records yet.
     */
    public record Call(Partition partition, long nowMillis, int dedupBuckets, long dedupWindowMillis, List<Task> tasks) {

        public ScriptCall script(RedisKeys keys) {
            String common = commonType();
            boolean typeEach = common.isEmpty();
            List<String> args = new ArrayList<>(6 + (typeEach ? TASK_FIELDS + 1 : TASK_FIELDS) * tasks.size());
            args.add(keys.base(partition));
            args.add(Long.toString(nowMillis));
            args.add(levels());
            args.add(Integer.toString(dedupBuckets));
            args.add(Long.toString(dedupWindowMillis));
            args.add(common);
            for (Task task : tasks) {
                args.add(task.id());
                args.add(task.digest());
                args.add(task.envelope());
                args.add(RecordBucket.of(task.id(), dedupBuckets));
                if (typeEach) {
                    args.add(task.type());
                }
            }
            return new ScriptCall(LuaScript.ENQUEUE, List.of(keys.pending(partition), keys.stats(partition)), args);
        }

        /** The type of every task, sent once; "" when they differ (each task then sends its own). */
        private String commonType() {
            String type = tasks.isEmpty() ? "" : tasks.get(0).type();
            return tasks.stream().allMatch(task -> task.type().equals(type)) ? type : "";
        }

        /** One digit per task, its level; "" when all are at the default (the usual call sends one short argument). */
        private String levels() {
            if (tasks.stream().allMatch(task -> task.priority() == Priority.DEFAULT)) {
                return "";
            }
            StringBuilder levels = new StringBuilder(tasks.size());
            tasks.forEach(task -> levels.append(task.priority()));
            return levels.toString();
        }
    }

    /** The answers of one call, one per task, in the call's order. */
    public record Reply(List<Answer> answers) {

        /** The script lists only the tasks it did not queue; {@code tasks} is how many the call had. */
        public static Reply read(Response reply, int tasks) {
            Answer[] answers = new Answer[tasks];
            Arrays.fill(answers, Answer.QUEUED);
            for (int i = 0; i + ANSWER_FIELDS - 1 < reply.size(); i += ANSWER_FIELDS) {
                Verdict verdict = reply.get(i + 1).toInteger() < 0 ? Verdict.CONFLICT : Verdict.DUPLICATE;
                answers[reply.get(i).toInteger()] = new Answer(verdict, reply.get(i + 2).toString());
            }
            return new Reply(List.of(answers));
        }
    }
}
