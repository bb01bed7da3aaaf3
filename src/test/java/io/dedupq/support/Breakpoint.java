package io.dedupq.support;

import com.sun.jdi.Bootstrap;
import com.sun.jdi.Method;
import com.sun.jdi.ReferenceType;
import com.sun.jdi.VMDisconnectedException;
import com.sun.jdi.VirtualMachine;
import com.sun.jdi.connect.AttachingConnector;
import com.sun.jdi.connect.Connector;
import com.sun.jdi.connect.IllegalConnectorArgumentsException;
import com.sun.jdi.event.BreakpointEvent;
import com.sun.jdi.event.ClassPrepareEvent;
import com.sun.jdi.event.Event;
import com.sun.jdi.event.EventSet;
import com.sun.jdi.request.BreakpointRequest;
import com.sun.jdi.request.ClassPrepareRequest;
import com.sun.jdi.request.EventRequest;
import java.io.IOException;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A breakpoint in a JVM started with {@link #jvmOption}: every thread that reaches the method
 * stops there and stays stopped while the breakpoint is attached, as a handler that never
 * returns, with no test code in the application. Only the thread that hit it is suspended.
 * {@link #close()} resumes it; close only once that JVM has ended, or to let it go on.
 */
public final class Breakpoint implements AutoCloseable {

    private final VirtualMachine vm;
    private final String method;
    private final CountDownLatch hit = new CountDownLatch(1);

    private Breakpoint(VirtualMachine vm, String className, String method) {
        this.vm = vm;
        this.method = method;
        ClassPrepareRequest prepare = vm.eventRequestManager().createClassPrepareRequest();
        prepare.addClassFilter(className);
        prepare.setSuspendPolicy(EventRequest.SUSPEND_EVENT_THREAD);
        prepare.enable();
        vm.classesByName(className).forEach(this::set);
        Thread events = new Thread(this::listen, "breakpoint-" + className);
        events.setDaemon(true);
        events.start();
    }

    /** The option that makes a JVM accept a debugger on {@code port} (127.0.0.1 only) without waiting for it. */
    public static String jvmOption(int port) {
        return "-agentlib:jdwp=transport=dt_socket,server=y,suspend=n,address=127.0.0.1:" + port;
    }

    /** Attaches to the JVM on {@code port} and sets the breakpoint on every {@code method} of {@code className}. */
    public static Breakpoint attach(int port, String className, String method) {
        AttachingConnector socket = Bootstrap.virtualMachineManager().attachingConnectors().stream()
                .filter(c -> c.transport().name().equals("dt_socket")).findFirst()
                .orElseThrow(() -> new IllegalStateException("this JDK has no socket debugger connector"));
        Map<String, Connector.Argument> args = socket.defaultArguments();
        args.get("hostname").setValue("127.0.0.1");
        args.get("port").setValue(Integer.toString(port));
        try {
            return new Breakpoint(socket.attach(args), className, method);
        } catch (IOException | IllegalConnectorArgumentsException e) {
            throw new IllegalStateException("cannot attach a debugger on port " + port + ": " + e.getMessage(), e);
        }
    }

    /** Waits until a thread has stopped at the breakpoint. */
    public void awaitHit(Duration timeout) throws InterruptedException {
        if (!hit.await(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            throw new IllegalStateException("no thread reached " + method + " within " + timeout);
        }
    }

    /** Detaches: the debugger's suspensions end. */
    @Override
    public void close() {
        try {
            vm.dispose();
        } catch (VMDisconnectedException gone) {
            // the JVM has ended
        }
    }

    private void set(ReferenceType type) {
        for (Method m : type.methodsByName(method)) {
            if (!m.isBridge() && !m.isAbstract()) {
                BreakpointRequest request = vm.eventRequestManager().createBreakpointRequest(m.location());
                request.setSuspendPolicy(EventRequest.SUSPEND_EVENT_THREAD);
                request.enable();
            }
        }
    }

    private void listen() {
        try {
            while (true) {
                EventSet events = vm.eventQueue().remove();
                boolean stopped = false;
                for (Event event : events) {
                    if (event instanceof ClassPrepareEvent prepared) {
                        set(prepared.referenceType());
                    } else if (event instanceof BreakpointEvent) {
                        stopped = true;
                        hit.countDown();
                    }
                }
                if (!stopped) {
                    events.resume();
                }
            }
        } catch (InterruptedException | VMDisconnectedException ended) {
            // the JVM has ended, or the breakpoint was closed
        }
    }
}
