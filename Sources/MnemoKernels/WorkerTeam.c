// A team of helper threads that stay awake for a while between parallel loops (see
// mnemo_team_run in MnemoKernels.h). Plain C11 atomics and POSIX threads: every platform.
#include "MnemoKernels.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>

#if defined(__x86_64__) || defined(__i386__)
#define MNEMO_SPIN_PAUSE() __builtin_ia32_pause()
#elif defined(__aarch64__)
#define MNEMO_SPIN_PAUSE() __asm__ __volatile__("yield")
#else
#define MNEMO_SPIN_PAUSE() ((void)0)
#endif

// How long an idle helper polls for the next loop before it sleeps. A forward pass's loops
// follow each other within microseconds, and waking a sleeping thread costs tens of them in a
// virtual machine (the reason this team exists); a pass's own gaps (layer norm, the next text's
// tokens) stay well under this, while a helper left idle gives its core back after 0.1 ms.
#define MNEMO_TEAM_SPIN_NANOSECONDS 100000

struct mnemo_team_loop {
    void (*body)(void *context, ptrdiff_t iteration);
    void *context;
    ptrdiff_t count;
    atomic_ptrdiff_t next;  // the next iteration to claim
    atomic_ptrdiff_t done;  // iterations finished
};

struct mnemo_team {
    pthread_mutex_t mutex;
    pthread_cond_t wake;
    // Bumped, under the mutex, whenever a loop is published or the team stops.
    atomic_uint_fast64_t generation;
    // The loop being run, on its caller's stack; NULL between loops.
    _Atomic(struct mnemo_team_loop *) loop;
    // Helpers between reading `loop` and being done with it: the caller waits for none before
    // its loop (and its stack) goes away.
    atomic_ptrdiff_t active;
    atomic_int claimed;
    atomic_int stopping;
    int sleeping;  // under the mutex
    ptrdiff_t helper_count;
    pthread_t helpers[];
};

static uint64_t mnemo_team_now(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (uint64_t)now.tv_sec * 1000000000u + (uint64_t)now.tv_nsec;
}

// Runs iterations of the loop until none is left to claim.
static void mnemo_team_work(struct mnemo_team_loop *loop) {
    for (;;) {
        ptrdiff_t iteration = atomic_fetch_add(&loop->next, 1);
        if (iteration >= loop->count) return;
        loop->body(loop->context, iteration);
        atomic_fetch_add_explicit(&loop->done, 1, memory_order_release);
    }
}

// Waits until the generation differs from `seen`: polling first, then asleep on the condition.
static uint64_t mnemo_team_wait(struct mnemo_team *team, uint64_t seen) {
    uint64_t start = mnemo_team_now();
    for (unsigned spins = 1;; spins++) {
        uint64_t generation = atomic_load_explicit(&team->generation, memory_order_acquire);
        if (generation != seen) return generation;
        MNEMO_SPIN_PAUSE();
        if (spins % 64 == 0 && mnemo_team_now() - start > MNEMO_TEAM_SPIN_NANOSECONDS) break;
    }
    pthread_mutex_lock(&team->mutex);
    team->sleeping++;
    uint64_t generation;
    while ((generation = atomic_load(&team->generation)) == seen) pthread_cond_wait(&team->wake, &team->mutex);
    team->sleeping--;
    pthread_mutex_unlock(&team->mutex);
    return generation;
}

static void *mnemo_team_helper(void *argument) {
    struct mnemo_team *team = argument;
    uint64_t seen = 0;
    for (;;) {
        seen = mnemo_team_wait(team, seen);
        if (atomic_load(&team->stopping)) return NULL;
        // `active` goes up before `loop` is read (both sequentially consistent, as the caller's
        // clearing of `loop` and its reading of `active`): either this helper sees no loop, or the
        // caller sees it active and waits.
        atomic_fetch_add(&team->active, 1);
        struct mnemo_team_loop *loop = atomic_load(&team->loop);
        if (loop) mnemo_team_work(loop);
        atomic_fetch_sub(&team->active, 1);
    }
}

// A new generation, under the mutex so that no helper can be between checking it and sleeping.
static void mnemo_team_announce(struct mnemo_team *team) {
    pthread_mutex_lock(&team->mutex);
    atomic_fetch_add(&team->generation, 1);
    if (team->sleeping > 0) pthread_cond_broadcast(&team->wake);
    pthread_mutex_unlock(&team->mutex);
}

// Polls until `*value` reaches `target`; yields the core now and then, in case the thread it
// waits for shares it. The loads are sequentially consistent (see `active`).
static void mnemo_team_await(atomic_ptrdiff_t *value, ptrdiff_t target) {
    for (unsigned spins = 1; atomic_load(value) != target; spins++) {
        MNEMO_SPIN_PAUSE();
        if (spins % 1024 == 0) sched_yield();
    }
}

mnemo_team *mnemo_team_create(ptrdiff_t helpers) {
    if (helpers < 1) return NULL;
    struct mnemo_team *team = calloc(1, sizeof(struct mnemo_team) + (size_t)helpers * sizeof(pthread_t));
    if (!team) return NULL;
    pthread_mutex_init(&team->mutex, NULL);
    pthread_cond_init(&team->wake, NULL);
    atomic_init(&team->generation, 0);
    atomic_init(&team->loop, NULL);
    atomic_init(&team->active, 0);
    atomic_init(&team->claimed, 0);
    atomic_init(&team->stopping, 0);
    for (ptrdiff_t index = 0; index < helpers; index++) {
        if (pthread_create(&team->helpers[index], NULL, mnemo_team_helper, team) != 0) {
            mnemo_team_destroy(team);
            return NULL;
        }
        team->helper_count = index + 1;
    }
    return team;
}

void mnemo_team_destroy(mnemo_team *team) {
    if (!team) return;
    atomic_store(&team->stopping, 1);
    mnemo_team_announce(team);
    for (ptrdiff_t index = 0; index < team->helper_count; index++) pthread_join(team->helpers[index], NULL);
    pthread_cond_destroy(&team->wake);
    pthread_mutex_destroy(&team->mutex);
    free(team);
}

int mnemo_team_claim(mnemo_team *team) { return atomic_exchange(&team->claimed, 1) == 0; }

void mnemo_team_release(mnemo_team *team) { atomic_store(&team->claimed, 0); }

void mnemo_team_run(mnemo_team *team, ptrdiff_t iterations, void (*body)(void *context, ptrdiff_t iteration),
                    void *context) {
    struct mnemo_team_loop loop = {.body = body, .context = context, .count = iterations};
    atomic_init(&loop.next, 0);
    atomic_init(&loop.done, 0);
    atomic_store(&team->loop, &loop);
    mnemo_team_announce(team);
    mnemo_team_work(&loop);
    mnemo_team_await(&loop.done, iterations);
    atomic_store(&team->loop, NULL);
    mnemo_team_await(&team->active, 0);
}
