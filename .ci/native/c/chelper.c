/*
 * libchelper: the small C functions every native image of the Maven Central builder calls
 * (LibCHelper, AMD64LibCHelper, LinuxLibCHelper, LocaleCHelper, CSunMiscSignal in the svm jar).
 * GraalVM distributions ship them prebuilt; the jars do not, so they are written here from the
 * Java declarations, for Linux on x86-64 only.
 */
#define _GNU_SOURCE
#include <cpuid.h>
#include <errno.h>
#include <locale.h>
#include <semaphore.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "amd64cpufeatures.h"
#include "svm_locale.h"

/* ---- CPU features ----------------------------------------------------------------------- */

static int bit(uint32_t reg, int n) {
    return (reg >> n) & 1;
}

void determineCPUFeatures(CPUFeatures *f) {
    uint32_t max, a, b, c, d;
    uint32_t c1 = 0, d1 = 0, b7 = 0, c7 = 0, d7 = 0, a71 = 0, ce = 0, de = 0, de7 = 0;
    uint64_t xcr0 = 0;

    max = __get_cpuid_max(0, NULL);
    if (max >= 1) {
        __cpuid(1, a, b, c1, d1);
    }
    if (max >= 7) {
        __cpuid_count(7, 0, a, b7, c7, d7);
        __cpuid_count(7, 1, a71, b, c, d);
    }
    uint32_t maxExt = __get_cpuid_max(0x80000000, NULL);
    if (maxExt >= 0x80000001) {
        __cpuid(0x80000001, a, b, ce, de);
    }
    if (maxExt >= 0x80000007) {
        __cpuid(0x80000007, a, b, c, de7);
    }
    int osxsave = bit(c1, 27);
    if (osxsave) {
        uint32_t lo, hi;
        __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
        xcr0 = ((uint64_t) hi << 32) | lo;
    }
    /* the OS saves the registers: XMM+YMM for AVX, opmask+ZMM for AVX-512 */
    int osAvx = osxsave && (xcr0 & 0x6) == 0x6;
    int osAvx512 = osAvx && (xcr0 & 0xe0) == 0xe0;

    f->fCX8 = bit(d1, 8);
    f->fCMOV = bit(d1, 15);
    f->fFLUSH = bit(d1, 19);
    f->fMMX = bit(d1, 23);
    f->fFXSR = bit(d1, 24);
    f->fSSE = bit(d1, 25);
    f->fSSE2 = bit(d1, 26);
    f->fHT = bit(d1, 28) && sysconf(_SC_NPROCESSORS_ONLN) > 1;
    f->fTSC = bit(d1, 4);
    f->fSSE3 = bit(c1, 0);
    f->fCLMUL = bit(c1, 1);
    f->fSSSE3 = bit(c1, 9);
    f->fFMA = osAvx && bit(c1, 12);
    f->fSSE4_1 = bit(c1, 19);
    f->fSSE4_2 = bit(c1, 20);
    f->fPOPCNT = bit(c1, 23);
    f->fAES = bit(c1, 25);
    f->fAVX = osAvx && bit(c1, 28);
    f->fVZEROUPPER = f->fAVX;
    f->fF16C = f->fAVX && bit(c1, 29);
    f->fHV = bit(c1, 31);
    f->fLZCNT = bit(ce, 5);
    f->fSSE4A = bit(ce, 6);
    f->fAMD_3DNOW_PREFETCH = bit(ce, 8);
    f->fRDTSCP = bit(de, 27);
    f->fTSCINV_BIT = bit(de7, 8);
    f->fTSCINV = f->fTSCINV_BIT;
    f->fBMI1 = bit(b7, 3);
    f->fAVX2 = f->fAVX && bit(b7, 5);
    f->fBMI2 = bit(b7, 8);
    f->fERMS = bit(b7, 9);
    f->fRTM = bit(b7, 11);
    f->fADX = bit(b7, 19);
    f->fFLUSHOPT = bit(b7, 23);
    f->fCLWB = bit(b7, 24);
    f->fSHA = bit(b7, 29);
    f->fAVX512F = osAvx512 && bit(b7, 16);
    if (f->fAVX512F) {
        f->fAVX512DQ = bit(b7, 17);
        f->fAVX512_IFMA = bit(b7, 21);
        f->fAVX512PF = bit(b7, 26);
        f->fAVX512ER = bit(b7, 27);
        f->fAVX512CD = bit(b7, 28);
        f->fAVX512BW = bit(b7, 30);
        f->fAVX512VL = bit(b7, 31);
        f->fAVX512_VBMI = bit(c7, 1);
        f->fAVX512_VBMI2 = bit(c7, 6);
        f->fAVX512_VNNI = bit(c7, 11);
        f->fAVX512_BITALG = bit(c7, 12);
        f->fAVX512_VPOPCNTDQ = bit(c7, 14);
        f->fAVX512_FP16 = bit(d7, 23);
    }
    f->fPKU = bit(c7, 3);
    f->fOSPKE = bit(c7, 4);
    f->fCET_SS = bit(c7, 7);
    f->fGFNI = bit(c7, 8);
    f->fAVX512_VAES = f->fAVX512F && bit(c7, 9);
    f->fAVX512_VPCLMULQDQ = f->fAVX512F && bit(c7, 10);
    f->fRDPID = bit(c7, 22);
    f->fFSRM = bit(d7, 4);
    f->fSERIALIZE = bit(d7, 14);
    f->fCET_IBT = bit(d7, 20);
    f->fSHA512 = f->fAVX && bit(a71, 0);
    f->fAVX_IFMA = f->fAVX2 && bit(a71, 23);
    /* APX and AVX10 need OS support this helper does not check: reported absent */
    f->fAPX_F = 0;
    f->fAVX10_1 = 0;
    f->fAVX10_2 = 0;
}

/*
 * The builder passes the features the image was compiled for as a byte mask over CPUFeatures:
 * each byte OR-ed with this CPU's flag must give 0xff (required features carry 0xfe).
 */
int checkCPUFeatures(const unsigned char *required) {
    static int result = -1;
    if (result != -1) {
        return result;
    }
    size_t size = (sizeof(CPUFeatures) + 7) / 8 * 8;
    unsigned char host[sizeof(CPUFeatures) + 8];
    memset(host, 0, sizeof(host));
    determineCPUFeatures((CPUFeatures *) host);
    result = 0;
    for (size_t i = 0; i < size; i++) {
        if ((unsigned char) (required[i] | host[i]) != 0xff) {
            result = 1;
            break;
        }
    }
    return result;
}

int checkCPUFeaturesOrExit(const unsigned char *required, const char *errorMessage) {
    if (checkCPUFeatures(required) != 0) {
        fputs(errorMessage, stderr);
        exit(1);
    }
    return 0;
}

/* ---- process and threads ---------------------------------------------------------------- */

extern char **environ;

char **getEnviron(void) {
    return environ;
}

int getThreadId(void) {
    return (int) syscall(SYS_gettid);
}

/* CPU time in user mode of one thread of this process, in nanoseconds, from /proc. */
long getThreadUserTimeSlow(int tid) {
    char path[64];
    char buf[1024];
    snprintf(path, sizeof(path), "/proc/self/task/%d/stat", tid);
    FILE *fp = fopen(path, "r");
    if (fp == NULL) {
        return -1;
    }
    size_t n = fread(buf, 1, sizeof(buf) - 1, fp);
    fclose(fp);
    buf[n] = '\0';
    /* the command name may hold spaces and parentheses: fields start after the last ')' */
    char *p = strrchr(buf, ')');
    if (p == NULL) {
        return -1;
    }
    unsigned long utime = 0;
    /* state is field 3, utime field 14 */
    if (sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %lu", &utime) != 1) {
        return -1;
    }
    return (long) (utime * (1000000000L / sysconf(_SC_CLK_TCK)));
}

/* ---- time zone ------------------------------------------------------------------------- */

static char *zoneFromPath(const char *path) {
    const char *marker = strstr(path, "zoneinfo/");
    return marker == NULL ? NULL : strdup(marker + strlen("zoneinfo/"));
}

/*
 * The platform's time-zone id, as the JDK finds it on Linux: TZ, then /etc/timezone, then the
 * zoneinfo file /etc/localtime links to. The caller frees it; the arguments (Windows mappings)
 * are unused here.
 */
char *SVM_FindJavaTZmd(const char *unusedMappings, int unusedLength) {
    const char *tz = getenv("TZ");
    if (tz != NULL && *tz != '\0') {
        if (*tz == ':') {
            tz++;
        }
        char *zone = zoneFromPath(tz);
        return zone != NULL ? zone : strdup(tz);
    }
    FILE *fp = fopen("/etc/timezone", "r");
    if (fp != NULL) {
        char line[256];
        char *zone = NULL;
        if (fgets(line, sizeof(line), fp) != NULL) {
            line[strcspn(line, " \t\r\n")] = '\0';
            if (line[0] != '\0') {
                zone = strdup(line);
            }
        }
        fclose(fp);
        if (zone != NULL) {
            return zone;
        }
    }
    char target[4096];
    ssize_t len = readlink("/etc/localtime", target, sizeof(target) - 1);
    if (len > 0) {
        target[len] = '\0';
        char *zone = zoneFromPath(target);
        if (zone != NULL) {
            return zone;
        }
    }
    return strdup("GMT");
}

/* ---- locale ---------------------------------------------------------------------------- */

static svm_locale_props_t localeProps;

static char *copyPart(const char *start, size_t len) {
    char *s = malloc(len + 1);
    if (s != NULL) {
        memcpy(s, start, len);
        s[len] = '\0';
    }
    return s;
}

/*
 * Splits a POSIX locale name language[_COUNTRY][.encoding][@modifier] into the Java locale's
 * parts; "C" and "POSIX" stand for en_US, as in the JDK. Only the "latn"/"cyrl" modifiers name
 * a script; other modifiers are dropped.
 */
static int parseLocale(int category, char **language, char **script, char **country, char **variant) {
    const char *name = setlocale(category, NULL);
    if (name == NULL || strcmp(name, "C") == 0 || strcmp(name, "POSIX") == 0) {
        name = "en_US";
    }
    size_t langLen = strcspn(name, "_.@");
    *language = copyPart(name, langLen);
    if (*language == NULL) {
        return SVM_LOCALE_INITIALIZATION_OUT_OF_MEMORY;
    }
    const char *rest = name + langLen;
    if (*rest == '_') {
        size_t countryLen = strcspn(rest + 1, ".@");
        *country = copyPart(rest + 1, countryLen);
        if (*country == NULL) {
            return SVM_LOCALE_INITIALIZATION_OUT_OF_MEMORY;
        }
    }
    const char *modifier = strchr(name, '@');
    if (modifier != NULL) {
        if (strcmp(modifier + 1, "latin") == 0) {
            *script = "Latn";
        } else if (strcmp(modifier + 1, "cyrillic") == 0) {
            *script = "Cyrl";
        }
    }
    (void) variant;
    return SVM_LOCALE_INITIALIZATION_SUCCEEDED;
}

int svm_initialize_locale(void) {
    setlocale(LC_ALL, "");
    int result = parseLocale(LC_CTYPE, &localeProps.format_language, &localeProps.format_script,
                             &localeProps.format_country, &localeProps.format_variant);
    if (result == SVM_LOCALE_INITIALIZATION_SUCCEEDED) {
        result = parseLocale(LC_MESSAGES, &localeProps.display_language, &localeProps.display_script,
                             &localeProps.display_country, &localeProps.display_variant);
    }
    return result;
}

svm_locale_props_t *svm_get_locale(void) {
    return &localeProps;
}

/* ---- signals for jdk.internal.misc.Signal ---------------------------------------------------
 * The handler runs on whatever thread the signal interrupts, outside Java: it only counts the
 * signal and posts a semaphore that the image's dispatcher thread waits on.
 */

static volatile long pendingSignals[NSIG];
static sem_t signalSemaphore;
static volatile int signalsOpen;

int cSunMiscSignal_signalRangeCheck(int signo) {
    return signo > 0 && signo < NSIG;
}

static void countingHandler(int signo) {
    int savedErrno = errno;
    if (cSunMiscSignal_signalRangeCheck(signo)) {
        __atomic_fetch_add(&pendingSignals[signo], 1, __ATOMIC_SEQ_CST);
        sem_post(&signalSemaphore);
    }
    errno = savedErrno;
}

int cSunMiscSignal_open(void) {
    int expected = 0;
    if (!__atomic_compare_exchange_n(&signalsOpen, &expected, 1, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST)) {
        errno = EBUSY;
        return -1;
    }
    for (int i = 0; i < NSIG; i++) {
        pendingSignals[i] = 0;
    }
    if (sem_init(&signalSemaphore, 0, 0) != 0) {
        signalsOpen = 0;
        return -1;
    }
    return 0;
}

int cSunMiscSignal_close(void) {
    if (signalsOpen) {
        sem_destroy(&signalSemaphore);
        signalsOpen = 0;
    }
    return 0;
}

int cSunMiscSignal_awaitSemaphore(void) {
    if (!signalsOpen) {
        errno = EINVAL;
        return -1;
    }
    /* an interruption counts as a wake-up: the caller looks at the counters either way */
    if (sem_wait(&signalSemaphore) != 0 && errno != EINTR) {
        return -1;
    }
    return 0;
}

int cSunMiscSignal_signalSemaphore(void) {
    if (!signalsOpen) {
        errno = EINVAL;
        return -1;
    }
    return sem_post(&signalSemaphore);
}

/* One pending signal, taken off its counter, or -1 when none is pending. */
int cSunMiscSignal_checkPendingSignal(void) {
    for (int signo = 1; signo < NSIG; signo++) {
        long n = pendingSignals[signo];
        while (n > 0) {
            if (__atomic_compare_exchange_n(&pendingSignals[signo], &n, n - 1, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST)) {
                return signo;
            }
        }
    }
    return -1;
}

void (*cSunMiscSignal_signalHandlerFunctionPointer(void))(int) {
    return countingHandler;
}

/* ---- fixed-argument forms of variadic libc functions (the image cannot call varargs) ------- */

#include <fcntl.h>
#include <sys/mman.h>

int openSII(const char *path, int flags, int mode) {
    return open(path, flags, mode);
}

void *mremapP(void *oldAddress, size_t oldSize, size_t newSize, int flags, void *newAddress) {
    return mremap(oldAddress, oldSize, newSize, flags, newAddress);
}

int fprintfSD(FILE *stream, const char *format, const char *s, int d) {
    return fprintf(stream, format, s, d);
}
