#include "devices/FaultReports.hpp"

#include <algorithm>
#include <csignal>
#include <cstring>
#include <mutex>
#include <sys/mman.h>
#include <unistd.h>

namespace gpuss::faults {

namespace detail {
thread_local const Activity *current [[gnu::tls_model("initial-exec")]] = nullptr;
} // namespace detail

namespace {

constexpr int handled_signals[] = {SIGSEGV, SIGBUS};

// The handlers ours replaced, by slot (handled_signals). Written by the
// master while ours is not installed; read by the handler.
struct sigaction replaced[2];
std::mutex install_mutex;
int holders = 0; // guarded by install_mutex

int slot_of(int signal) {
  return signal == SIGSEGV ? 0 : 1;
}

const char *name_of(int signal) {
  return signal == SIGSEGV ? "SIGSEGV" : "SIGBUS";
}

// One line of text built without allocating, then written to stderr.
class Line {
public:
  Line &add(const char *text) {
    for (; text && *text && length_ < sizeof text_; ++text)
      text_[length_++] = *text;
    return *this;
  }
  Line &add_decimal(unsigned long long value) {
    char digits[24];
    int count = 0;
    do {
      digits[count++] = static_cast<char>('0' + value % 10);
      value /= 10;
    } while (value != 0);
    while (count > 0 && length_ < sizeof text_)
      text_[length_++] = digits[--count];
    return *this;
  }
  // As printf's %p: 0x and lowercase digits, no leading zeros.
  Line &add_address(std::uintptr_t value) {
    if (value == 0) return add("(nil)");
    char digits[2 * sizeof value];
    int count = 0;
    for (; value != 0; value >>= 4)
      digits[count++] = "0123456789abcdef"[value & 0xf];
    add("0x");
    while (count > 0 && length_ < sizeof text_)
      text_[length_++] = digits[--count];
    return *this;
  }
  Line &add_task(const Activity &activity) {
    return add("gpuss: error: ")
        .add(activity.file)
        .add(":")
        .add_decimal(static_cast<unsigned long long>(activity.line))
        .add(": task '")
        .add(activity.label)
        .add("': ");
  }
  void write_out() {
    if (length_ == sizeof text_) text_[length_ - 1] = '\n';
    for (std::size_t written = 0; written < length_;) {
      ssize_t n = ::write(STDERR_FILENO, text_ + written, length_ - written);
      if (n <= 0) return;
      written += static_cast<std::size_t>(n);
    }
  }

private:
  char text_[1024];
  std::size_t length_ = 0;
};

[[noreturn]] void report_copy(const Activity &copy, std::uintptr_t address) {
  const Region &region = copy.region;
  Line line;
  line.add_task(copy).add("copying region ").add_address(region.base).add(" (");
  line.add_decimal(region.payload_bytes()).add(" bytes");
  if (!region.is_contiguous())
    line.add(": ")
        .add_decimal(region.rows)
        .add(" rows of ")
        .add_decimal(region.row_bytes)
        .add(", stride ")
        .add_decimal(region.stride);
  line.add(") from ").add(copy.from).add(" to ").add(copy.to).add(" faulted at ").add_address(address);
  // The copy reads or writes the region's bytes in host memory (user memory,
  // or a renamed buffer); a fault anywhere else is the runtime's own.
  if (address >= copy.host && address - copy.host < region.span())
    line.add(": the region reaches memory the program does not own (past the end of its allocation?)\n");
  else
    line.add(": outside the region's bytes in host memory (an error of libgpuss; please report it)\n");
  line.write_out();
  _exit(1);
}

void report_body(const Activity &body, int signal, std::uintptr_t address) {
  Line line;
  line.add_task(body).add("crashed with ").add(name_of(signal)).add(" at ").add_address(address);
  line.add(" in its body (on ").add(body.from).add(")\n");
  line.write_out();
}

bool default_action(const struct sigaction &action) {
  return !(action.sa_flags & SA_SIGINFO) && (action.sa_handler == SIG_DFL || action.sa_handler == SIG_IGN);
}

// What would have happened without us.
void pass_on(int signal, siginfo_t *info, void *context) {
  const struct sigaction &before = replaced[slot_of(signal)];
  const bool sent = info == nullptr || info->si_code <= 0; // by kill() or raise(), not by a fault
  if (default_action(before)) {
    if (before.sa_handler == SIG_IGN && sent) return;
    // A fault the program did not handle (ignoring one is not possible: the
    // kernel applies the default then too): the default action, when the
    // faulting instruction runs again. A signal sent is raised again,
    // delivered once this handler returns.
    struct sigaction fallback {};
    fallback.sa_handler = SIG_DFL;
    sigemptyset(&fallback.sa_mask);
    sigaction(signal, &fallback, nullptr);
    if (sent) raise(signal);
    return;
  }
  // The program's handler, as the kernel would have run it: with its mask,
  // and reset first if it asked for that.
  sigset_t mask;
  pthread_sigmask(SIG_BLOCK, &before.sa_mask, &mask);
  if (before.sa_flags & SA_RESETHAND) {
    struct sigaction fallback {};
    fallback.sa_handler = SIG_DFL;
    sigemptyset(&fallback.sa_mask);
    sigaction(signal, &fallback, nullptr);
  }
  if (before.sa_flags & SA_SIGINFO)
    before.sa_sigaction(signal, info, context);
  else
    before.sa_handler(signal);
  pthread_sigmask(SIG_SETMASK, &mask, nullptr);
}

void on_fault(int signal, siginfo_t *info, void *context) {
  const Activity *activity = detail::current;
  const bool fault = info != nullptr && info->si_code > 0;
  if (activity && fault) {
    std::uintptr_t address = reinterpret_cast<std::uintptr_t>(info->si_addr);
    if (activity->kind == Activity::Kind::Copy) report_copy(*activity, address);
    // A body's fault is the program's own: named only where nothing of the
    // program's would see it.
    if (default_action(replaced[slot_of(signal)])) report_body(*activity, signal, address);
  }
  pass_on(signal, info, context);
}

} // namespace

Handler::Handler() {
  std::lock_guard lock(install_mutex);
  held_ = true;
  if (holders++ > 0) return;
  struct sigaction ours {};
  ours.sa_sigaction = on_fault;
  // On the thread's alternate stack where it has one: a body that overflowed
  // its stack has none left for the handler.
  ours.sa_flags = SA_SIGINFO | SA_ONSTACK;
  sigemptyset(&ours.sa_mask);
  for (int signal : handled_signals)
    sigaction(signal, &ours, &replaced[slot_of(signal)]);
}

void Handler::release() {
  std::lock_guard lock(install_mutex);
  if (!held_) return;
  held_ = false;
  if (--holders > 0) return;
  for (int signal : handled_signals) {
    // A handler the program installed since ours (perhaps passing faults on
    // to ours) stays.
    struct sigaction now {};
    if (sigaction(signal, nullptr, &now) == 0 && (now.sa_flags & SA_SIGINFO) && now.sa_sigaction == on_fault)
      sigaction(signal, &replaced[slot_of(signal)], nullptr);
  }
}

AlternateStack::AlternateStack() {
  stack_t existing{};
  if (sigaltstack(nullptr, &existing) != 0 || !(existing.ss_flags & SS_DISABLE)) return;
  long minimum = sysconf(_SC_SIGSTKSZ);
  bytes_ = std::max<std::size_t>(std::size_t{64} << 10, minimum > 0 ? static_cast<std::size_t>(minimum) : 0);
  void *stack = mmap(nullptr, bytes_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (stack == MAP_FAILED) return; // the handler then runs on the thread's own stack
  stack_t alternate{};
  alternate.ss_sp = stack;
  alternate.ss_size = bytes_;
  if (sigaltstack(&alternate, nullptr) != 0) {
    munmap(stack, bytes_);
    return;
  }
  stack_ = stack;
}

AlternateStack::~AlternateStack() {
  if (!stack_) return;
  stack_t none{};
  none.ss_flags = SS_DISABLE;
  sigaltstack(&none, nullptr);
  munmap(stack_, bytes_);
}

} // namespace gpuss::faults
