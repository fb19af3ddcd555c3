// MpiTransport: the layer's messages over MPI (Transport.hpp).
//
// Owns MPI for the layer: initialises it when the program runs under a
// launcher and has not (MPI_THREAD_MULTIPLE asked, MPI_THREAD_SERIALIZED
// needed), works on a duplicate of MPI_COMM_WORLD so that its tags never
// meet the program's own messages, and finalises it at exit if it
// initialised it.
//
// Threads: the helper hands over started transfers (start: a queue); the
// progress thread posts them, tests them and completes their tasks; the
// master calls barrier() and shutdown(). Every MPI call holds mpi_mutex_.
#include "support/Fatal.hpp"
#include "memory/HostReleaseHooks.hpp"
#include "Transport.hpp"

// MPI's C interface only: the C++ bindings need libmpi_cxx.
#define OMPI_SKIP_MPICXX 1
#define MPICH_SKIP_MPICXX 1
#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <thread>
#include <vector>

namespace gpuss::mpi {

namespace {

using namespace std::chrono_literals;

// Seconds on CLOCK_MONOTONIC, which every process of a machine shares: the
// network model compares one rank's times with another's.
double monotonic_seconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

std::string error_text(int code) {
  char text[MPI_MAX_ERROR_STRING];
  int length = 0;
  MPI_Error_string(code, text, &length);
  return std::string(text, static_cast<std::size_t>(length));
}

void check(int code, const char *call) {
  if (code != MPI_SUCCESS) fatal(std::string("MPI: ") + call + " failed: " + error_text(code));
}

bool under_a_launcher() {
  for (const char *name : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMI_RANK", "PMIX_RANK"})
    if (const char *value = std::getenv(name); value && *value) return true;
  return false;
}

// The MPI type of a region's bytes: `rows` runs of `row_bytes`, `stride`
// apart, without limits on the counts MPI's ints impose.
MPI_Datatype region_type(const css_region &region) {
  constexpr std::size_t chunk = std::size_t{1} << 30;
  MPI_Datatype row = MPI_DATATYPE_NULL;
  if (region.row_bytes <= chunk) {
    check(MPI_Type_contiguous(static_cast<int>(region.row_bytes), MPI_BYTE, &row), "MPI_Type_contiguous");
  } else {
    MPI_Datatype gib = MPI_DATATYPE_NULL, whole = MPI_DATATYPE_NULL, rest = MPI_DATATYPE_NULL;
    check(MPI_Type_contiguous(static_cast<int>(chunk), MPI_BYTE, &gib), "MPI_Type_contiguous");
    check(MPI_Type_contiguous(static_cast<int>(region.row_bytes / chunk), gib, &whole),
          "MPI_Type_contiguous");
    check(MPI_Type_contiguous(static_cast<int>(region.row_bytes % chunk), MPI_BYTE, &rest),
          "MPI_Type_contiguous");
    int lengths[2] = {1, 1};
    MPI_Aint offsets[2] = {0, static_cast<MPI_Aint>(region.row_bytes / chunk * chunk)};
    MPI_Datatype parts[2] = {whole, rest};
    check(MPI_Type_create_struct(2, lengths, offsets, parts, &row), "MPI_Type_create_struct");
    MPI_Type_free(&gib);
    MPI_Type_free(&whole);
    MPI_Type_free(&rest);
  }
  MPI_Datatype type = row;
  if (region.rows > 1) {
    if (region.rows > static_cast<std::size_t>(INT32_MAX)) fatal("MPI: a region of more than 2^31 rows");
    check(MPI_Type_create_hvector(static_cast<int>(region.rows), 1, static_cast<MPI_Aint>(region.stride), row,
                                  &type),
          "MPI_Type_create_hvector");
    MPI_Type_free(&row);
  }
  check(MPI_Type_commit(&type), "MPI_Type_commit");
  return type;
}

// A modelled message's token: when its last byte arrives, and its size.
struct Token {
  double arrival = 0;
  double bytes = 0;
};

class MpiTransport final : public Transport {
public:
  MpiTransport(const NetworkModel &network, bool owns_mpi) : network_(network), owns_mpi_(owns_mpi) {
    check(MPI_Comm_dup(MPI_COMM_WORLD, &comm_), "MPI_Comm_dup");
    check(MPI_Comm_set_errhandler(comm_, MPI_ERRORS_RETURN), "MPI_Comm_set_errhandler");
    check(MPI_Comm_rank(comm_, &rank_), "MPI_Comm_rank");
    check(MPI_Comm_size(comm_, &size_), "MPI_Comm_size");
    void *value = nullptr;
    int found = 0;
    check(MPI_Comm_get_attr(comm_, MPI_TAG_UB, &value, &found), "MPI_Comm_get_attr");
    tag_limit_ = found ? static_cast<std::uint64_t>(*static_cast<int *>(value)) + 1 : 32768;
    thread_ = std::jthread([this] { run(); });
  }
  ~MpiTransport() override { shutdown(); }

  int rank() const override { return rank_; }
  int size() const override { return size_; }
  bool distributed() const override { return true; }

  void start(ExternalTask task) override {
    {
      std::lock_guard lock(queue_mutex_);
      incoming_.push_back(std::move(task));
    }
    wake_.notify_one();
  }

  void barrier(std::uint64_t digest) override {
    // One collective both synchronises and compares the ranks' decisions:
    // the largest digest and the largest complement give the smallest.
    std::uint64_t values[2] = {digest, ~digest};
    MPI_Request request = MPI_REQUEST_NULL;
    {
      std::lock_guard lock(mpi_mutex_);
      check(MPI_Iallreduce(MPI_IN_PLACE, values, 2, MPI_UINT64_T, MPI_MAX, comm_, &request),
            "MPI_Iallreduce");
    }
    // Tested, not waited on: MPI_Wait would hold the lock the progress
    // thread needs for the transfers other ranks may still wait for.
    for (auto pause = 20us;; pause = std::min(2 * pause, std::chrono::microseconds(1000))) {
      int done = 0;
      {
        std::lock_guard lock(mpi_mutex_);
        check(MPI_Test(&request, &done, MPI_STATUS_IGNORE), "MPI_Test");
      }
      if (done) break;
      std::this_thread::sleep_for(pause);
    }
    if (values[0] != digest || ~values[1] != digest)
      fatal("rank " + std::to_string(rank_) +
            ": the ranks have not made the same task calls, declarations and barriers (their decisions "
            "differ at this barrier): under MPI every rank runs the same program with the same data "
            "distribution (docs/mpi.md)");
  }

  void shutdown() override {
    {
      std::lock_guard lock(queue_mutex_);
      if (stopping_) return;
      stopping_ = true;
    }
    wake_.notify_one();
    thread_ = {}; // joins once every message is done
    std::lock_guard lock(mpi_mutex_);
    MPI_Comm_free(&comm_);
    int finalized = 0;
    MPI_Finalized(&finalized);
    if (owns_mpi_ && !finalized) MPI_Finalize();
  }

private:
  struct Message {
    explicit Message(ExternalTask started) : task(std::move(started)) {
      std::memcpy(&args, task.args(), sizeof args);
    }
    ExternalTask task;
    TransferArgs args{};
    std::uint64_t bytes = 0;
    MPI_Datatype type = MPI_DATATYPE_NULL;
    Token token;        // CSS_MPI_NET: what is sent or received instead of the bytes
    double done_at = 0; // CSS_MPI_NET: when the network has carried it (monotonic seconds)
  };

  int tag_of(const TransferArgs &args) const { return static_cast<int>(args.sequence % tag_limit_); }

  // Progress thread, under mpi_mutex_.
  MPI_Request post(Message &message) {
    const css_access &access = message.task.access(0);
    message.bytes = access.region.row_bytes * (access.region.rows == 0 ? 1 : access.region.rows);
    const int tag = tag_of(message.args);
    MPI_Request request = MPI_REQUEST_NULL;
    if (network_.modelled) {
      // The bytes do not move: a token says when they would have arrived.
      if (message.args.kind == TransferArgs::Send) {
        const double start = std::max(monotonic_seconds(), out_free_);
        out_free_ = start + network_.seconds_for(static_cast<double>(message.bytes));
        message.done_at = out_free_;
        message.token = Token{out_free_ + network_.latency, static_cast<double>(message.bytes)};
        check(MPI_Isend(&message.token, sizeof(Token), MPI_BYTE, message.args.peer, tag, comm_, &request),
              "MPI_Isend");
      } else {
        check(MPI_Irecv(&message.token, sizeof(Token), MPI_BYTE, message.args.peer, tag, comm_, &request),
              "MPI_Irecv");
      }
      return request;
    }
    message.type = region_type(access.region);
    void *buffer = message.task.address(0);
    if (message.args.kind == TransferArgs::Send)
      check(MPI_Isend(buffer, 1, message.type, message.args.peer, tag, comm_, &request), "MPI_Isend");
    else
      check(MPI_Irecv(buffer, 1, message.type, message.args.peer, tag, comm_, &request), "MPI_Irecv");
    return request;
  }

  // Progress thread, under mpi_mutex_: MPI is done with the message.
  void received(Message &message, const MPI_Status &status) {
    if (message.type != MPI_DATATYPE_NULL) MPI_Type_free(&message.type);
    if (message.args.kind != TransferArgs::Receive) return;
    int count = 0;
    MPI_Get_count(&status, MPI_BYTE, &count);
    const std::uint64_t expected = network_.modelled ? sizeof(Token) : message.bytes;
    // A wrong size means the ranks matched different data: they did not run
    // the same program (or declared differently). Counts past 2^31 bytes
    // are not representable here and are trusted.
    if (expected < (std::uint64_t{1} << 31) && static_cast<std::uint64_t>(count) != expected)
      fatal_for_task(message.task.task().label, message.task.task().file, message.task.task().line,
                     "rank " + std::to_string(rank_) + " expected " + std::to_string(expected) +
                         " bytes from rank " + std::to_string(message.args.peer) + " and got " +
                         std::to_string(count) +
                         ": the ranks disagree on the data (every rank must run the same program with the "
                         "same declarations)");
    if (network_.modelled) {
      // The node's one link in carries its messages one after another.
      const double bytes = message.token.bytes;
      message.done_at = std::max(message.token.arrival, in_free_ + network_.seconds_for(bytes));
      in_free_ = message.done_at;
    }
  }

  void finish(Message &message) {
    const bool send = message.args.kind == TransferArgs::Send;
    (send ? sends_ : receives_).fetch_add(1, std::memory_order_relaxed);
    (send ? bytes_sent_ : bytes_received_).fetch_add(message.bytes, std::memory_order_relaxed);
    const std::string name = (send ? "to " : "from ") + std::to_string(message.args.peer) + " #" +
                             std::to_string(message.args.sequence);
    std::atomic<std::uint64_t> *pending = message.args.pending;
    message.task.complete(message.bytes, name);
    if (pending && pending->fetch_sub(1, std::memory_order_acq_rel) == 1) pending->notify_all();
  }

  void run() {
    release_hooks::Exemption exempt; // a runtime thread: frees only what the runtime owns
    std::vector<std::unique_ptr<Message>> active, timed;
    std::vector<MPI_Request> requests;
    std::vector<int> indices;
    std::vector<MPI_Status> statuses;
    auto pause = std::chrono::microseconds(0);
    auto last_activity = std::chrono::steady_clock::now();
    for (;;) {
      std::vector<ExternalTask> fresh;
      {
        std::unique_lock lock(queue_mutex_);
        auto woken = [&] { return stopping_ || !incoming_.empty(); };
        if (active.empty() && timed.empty())
          wake_.wait(lock, woken);
        else if (pause.count() > 0)
          wake_.wait_for(lock, pause, woken);
        if (stopping_ && incoming_.empty() && active.empty() && timed.empty()) return;
        fresh.swap(incoming_);
      }
      bool progress = !fresh.empty();
      std::vector<std::unique_ptr<Message>> done;
      {
        std::lock_guard lock(mpi_mutex_);
        for (ExternalTask &task : fresh) {
          auto message = std::make_unique<Message>(std::move(task));
          requests.push_back(post(*message));
          active.push_back(std::move(message));
        }
        if (!requests.empty()) {
          indices.resize(requests.size());
          statuses.resize(requests.size());
          int count = 0;
          check(MPI_Testsome(static_cast<int>(requests.size()), requests.data(), &count, indices.data(),
                             statuses.data()),
                "MPI_Testsome");
          for (int i = 0; i < count && count != MPI_UNDEFINED; ++i) {
            received(*active[indices[i]], statuses[i]);
            done.push_back(std::move(active[indices[i]]));
          }
          if (count > 0 && count != MPI_UNDEFINED) {
            // Completed requests are MPI_REQUEST_NULL now: drop them, in order.
            std::size_t kept = 0;
            for (std::size_t i = 0; i < requests.size(); ++i)
              if (active[i]) {
                requests[kept] = requests[i];
                active[kept++] = std::move(active[i]);
              }
            requests.resize(kept);
            active.resize(kept);
            progress = true;
          }
        }
      }
      for (std::unique_ptr<Message> &message : done)
        if (network_.modelled)
          timed.push_back(std::move(message));
        else
          finish(*message);
      // CSS_MPI_NET: messages whose modelled time has come.
      double next_due = 0;
      if (!timed.empty()) {
        const double now = monotonic_seconds();
        for (std::unique_ptr<Message> &message : timed)
          if (message->done_at <= now) {
            finish(*message);
            message.reset();
            progress = true;
          } else if (next_due == 0 || message->done_at < next_due) {
            next_due = message->done_at;
          }
        std::erase(timed, nullptr);
        if (next_due > 0) next_due -= now;
      }
      // Nothing happened: poll less often. MPI moves a large message only
      // when called (TCP in fragments; shared memory and RDMA at least for
      // the handshake), so while messages move, polling stays within 50 us:
      // a 1 ms pause cut the rate of 32 MiB messages over TCP to about half
      // of MPI's own on the dev VM, 50 us keeps up with it. But each poll tests
      // every request, and receives may wait long for another rank's task
      // (200 of them polled every 50 us took 17% of a core): after 50 ms
      // without a message done or posted, every millisecond. Modelled
      // messages are 16-byte tokens that need no such help: up to 1 ms,
      // waking for the next one's time.
      const auto now = std::chrono::steady_clock::now();
      if (progress) last_activity = now;
      const bool moving = !network_.modelled && now - last_activity < 50ms;
      const auto longest = moving ? 50us : 1000us;
      pause = progress ? 0us : std::min(std::max(2 * pause, std::chrono::microseconds(20)), longest);
      if (next_due > 0 && (active.empty() || next_due * 1e6 < static_cast<double>(pause.count())))
        pause = std::chrono::microseconds(std::max<long>(1, static_cast<long>(next_due * 1e6)));
    }
  }

  NetworkModel network_;
  bool owns_mpi_;
  MPI_Comm comm_ = MPI_COMM_NULL;
  int rank_ = 0, size_ = 1;
  std::uint64_t tag_limit_ = 32768;
  std::mutex mpi_mutex_;
  std::mutex queue_mutex_;
  std::condition_variable wake_;
  std::vector<ExternalTask> incoming_; // guarded by queue_mutex_
  bool stopping_ = false;              // guarded by queue_mutex_
  double out_free_ = 0, in_free_ = 0;  // CSS_MPI_NET: when this node's links are free (progress thread)
  std::jthread thread_;
};

} // namespace

std::unique_ptr<Transport> make_transport(const NetworkModel &network) {
  int finalized = 0, initialized = 0, provided = 0;
  MPI_Finalized(&finalized);
  if (finalized) fatal("css_mpi_init: MPI has already been finalised");
  MPI_Initialized(&initialized);
  bool owns = false;
  if (!initialized) {
    // Started without mpirun: one rank, and MPI stays out of it.
    if (!under_a_launcher()) return make_single_rank_transport();
    check(MPI_Init_thread(nullptr, nullptr, MPI_THREAD_MULTIPLE, &provided), "MPI_Init_thread");
    owns = true;
  } else {
    MPI_Query_thread(&provided);
  }
  if (provided < MPI_THREAD_SERIALIZED)
    fatal("MPI was initialised with thread support level " + std::to_string(provided) +
          " (MPI_THREAD_SINGLE or FUNNELED); GPUSs makes MPI calls from its own thread and needs "
          "MPI_THREAD_SERIALIZED at least (MPI_THREAD_MULTIPLE when the program makes MPI calls itself): "
          "initialise MPI with MPI_Init_thread, or let css_mpi_init do it");
  return std::make_unique<MpiTransport>(network, owns);
}

} // namespace gpuss::mpi
