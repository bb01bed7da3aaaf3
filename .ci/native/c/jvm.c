/*
 * libjvm.so for native images that link the JDK's shared libjava/libnio/libnet/libzip: those
 * libraries import JVM_* functions (bound at load time, they are linked with -z now) and name
 * libjvm.so as a dependency. A native image replaces nearly all of them with its own Java code,
 * so this library implements the few a running image reaches and the entry points the builder
 * links against (Jvm.initialize, JNI_OnLoad_<lib>); build-cache generates a stub for every other
 * imported name that reports the call and aborts (jvm_stubs.c).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <jni.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

/* Jvm.initialize: nothing to set up in this library. */
void initialize(void) {
}

jint JVM_ActiveProcessorCount(void) {
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof(set), &set) == 0) {
        int n = CPU_COUNT(&set);
        if (n > 0) {
            return n;
        }
    }
    return (jint) sysconf(_SC_NPROCESSORS_ONLN);
}

jlong JVM_CurrentTimeMillis(JNIEnv *env, jclass ignored) {
    struct timeval tv;
    gettimeofday(&tv, NULL);
    return (jlong) tv.tv_sec * 1000 + tv.tv_usec / 1000;
}

jlong JVM_NanoTime(JNIEnv *env, jclass ignored) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (jlong) ts.tv_sec * 1000000000L + ts.tv_nsec;
}

/* Nanoseconds of wall-clock time since offset_secs, or -1 when that does not fit (as HotSpot). */
jlong JVM_GetNanoTimeAdjustment(JNIEnv *env, jclass ignored, jlong offset_secs) {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    jlong diff = (jlong) ts.tv_sec - offset_secs;
    if (diff >= 0x100000000L || diff <= -0x100000000L) {
        return -1;
    }
    return diff * 1000000000L + ts.tv_nsec;
}

jboolean JVM_IsSupportedJNIVersion(jint version) {
    return version == JNI_VERSION_1_1 || version == JNI_VERSION_1_2 || version == JNI_VERSION_1_4
        || version == JNI_VERSION_1_6 || version == JNI_VERSION_1_8 || version == JNI_VERSION_9
        || version == JNI_VERSION_10 || version == JNI_VERSION_19 || version == JNI_VERSION_20
        || version == JNI_VERSION_21 || version == JNI_VERSION_24;
}

jboolean JVM_IsContainerized(void) {
    return JNI_FALSE;
}

jboolean JVM_IsUseContainerSupport(void) {
    return JNI_FALSE;
}

void *JVM_LoadLibrary(const char *name, jboolean throwException) {
    return dlopen(name, RTLD_LAZY);
}

void JVM_UnloadLibrary(void *handle) {
    dlclose(handle);
}

void *JVM_FindLibraryEntry(void *handle, const char *name) {
    return dlsym(handle, name);
}

int jio_vsnprintf(char *str, size_t count, const char *fmt, va_list args) {
    if ((intptr_t) count <= 0) {
        return -1;
    }
    int result = vsnprintf(str, count, fmt, args);
    if (result > 0 && (size_t) result >= count) {
        result = -1;
    }
    return result;
}

int jio_snprintf(char *str, size_t count, const char *fmt, ...) {
    va_list args;
    va_start(args, fmt);
    int result = jio_vsnprintf(str, count, fmt, args);
    va_end(args);
    return result;
}

int jio_vfprintf(FILE *f, const char *fmt, va_list args) {
    return vfprintf(f, fmt, args);
}

int jio_fprintf(FILE *f, const char *fmt, ...) {
    va_list args;
    va_start(args, fmt);
    int result = vfprintf(f, fmt, args);
    va_end(args);
    return result;
}

int jio_printf(const char *fmt, ...) {
    va_list args;
    va_start(args, fmt);
    int result = vfprintf(stdout, fmt, args);
    va_end(args);
    return result;
}

/*
 * The builder treats the JDK's libraries as linked in and calls JNI_OnLoad_<lib> for each; the
 * shared libraries export plain JNI_OnLoad, which is looked up in the already loaded library.
 */
static jint forwardOnLoad(const char *soname, JavaVM *vm, void *reserved) {
    void *handle = dlopen(soname, RTLD_LAZY | RTLD_NOLOAD);
    if (handle == NULL) {
        return JNI_VERSION_1_8;
    }
    jint (*onLoad)(JavaVM *, void *) = (jint (*)(JavaVM *, void *)) dlsym(handle, "JNI_OnLoad");
    jint version = onLoad != NULL ? onLoad(vm, reserved) : JNI_VERSION_1_8;
    dlclose(handle);
    /* a linked-in library must ask for JNI 1.8 at least; the shared ones ask for 1.2 */
    return version < 0 || version >= JNI_VERSION_1_8 ? version : JNI_VERSION_1_8;
}

#define ON_LOAD(lib) \
    JNIEXPORT jint JNICALL JNI_OnLoad_##lib(JavaVM *vm, void *reserved) { \
        return forwardOnLoad("lib" #lib ".so", vm, reserved); \
    }

ON_LOAD(java)
ON_LOAD(nio)
ON_LOAD(net)
ON_LOAD(zip)
ON_LOAD(extnet)
ON_LOAD(jaas)
ON_LOAD(prefs)
