#include "memory/StagedCopies.hpp"

#include <algorithm>
#include <chrono>
#include <cstring>

namespace gpuss {

std::vector<StagedPart> plan_staged_parts(const Region &shape, std::size_t buffer_bytes) {
  std::vector<StagedPart> parts;
  if (shape.empty() || buffer_bytes == 0) return parts;
  if (shape.row_bytes <= buffer_bytes && !shape.is_contiguous()) {
    const std::size_t rows_per_part = buffer_bytes / shape.row_bytes;
    for (std::size_t row = 0; row < shape.rows; row += rows_per_part)
      parts.push_back({row * shape.stride, shape.row_bytes, std::min(rows_per_part, shape.rows - row)});
    return parts;
  }
  // Contiguous, or rows larger than a buffer: pieces of one row each.
  for (std::size_t row = 0; row < shape.rows; ++row)
    for (std::size_t at = 0; at < shape.row_bytes; at += buffer_bytes)
      parts.push_back({row * shape.stride + at, std::min(buffer_bytes, shape.row_bytes - at), 1});
  return parts;
}

unsigned auto_staging_threads(int gpus, unsigned hardware_threads) {
  constexpr unsigned fewest = 4, most = 16;
  if (gpus != 1 || hardware_threads < fewest) return 0;
  return std::min(hardware_threads, most);
}

UnlockedCopies choose_unlocked_copies(UnlockedCopies asked, int gpus) {
  if (asked != UnlockedCopies::Auto) return asked;
  return gpus >= 2 ? UnlockedCopies::Pageable : UnlockedCopies::Lock;
}

CopyThreads::CopyThreads(unsigned threads) {
  for (unsigned i = 0; i < threads; ++i)
    threads_.emplace_back([this] { run(); });
}

CopyThreads::~CopyThreads() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  posted_.notify_all();
  threads_.clear(); // joins
}

void CopyThreads::post(Job &job) {
  {
    std::lock_guard lock(mutex_);
    queue_.push_back(&job);
  }
  posted_.notify_one();
}

void CopyThreads::wait(const Job &job) {
  std::unique_lock lock(mutex_);
  finished_.wait(lock, [&] { return job.done; });
}

namespace {
CopyThreads::Job part_job(const Region &shape, const StagedPart &part, const faults::Activity &activity) {
  CopyThreads::Job job;
  job.row_bytes = part.row_bytes;
  job.rows = part.rows;
  job.activity = activity;
  job.activity.region = Region{shape.base + part.offset, part.row_bytes, part.rows, shape.stride};
  return job;
}
} // namespace

CopyThreads::Job CopyThreads::pack(const Region &shape, const StagedPart &part, const std::byte *host,
                                   std::byte *buffer, const faults::Activity &activity) {
  Job job = part_job(shape, part, activity);
  job.from = host + part.offset;
  job.to = buffer;
  job.from_stride = shape.stride;
  job.to_stride = part.row_bytes;
  return job;
}

CopyThreads::Job CopyThreads::unpack(const Region &shape, const StagedPart &part, const std::byte *buffer,
                                     std::byte *host, const faults::Activity &activity) {
  Job job = part_job(shape, part, activity);
  job.from = buffer;
  job.to = host + part.offset;
  job.from_stride = part.row_bytes;
  job.to_stride = shape.stride;
  return job;
}

bool CopyThreads::finished(const Job &job) {
  std::lock_guard lock(mutex_);
  return job.done;
}

CopyThreads::Totals CopyThreads::totals() const {
  return {bytes_.load(std::memory_order_relaxed), busy_nanoseconds_.load(std::memory_order_relaxed) * 1e-9};
}

void CopyThreads::run() {
  for (;;) {
    Job *job = nullptr;
    {
      std::unique_lock lock(mutex_);
      posted_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
      if (queue_.empty()) return; // stopping, and nothing left
      job = queue_.front();
      queue_.pop_front();
    }
    const auto started = std::chrono::steady_clock::now();
    {
      faults::Activity activity = job->activity;
      faults::Scope scope(activity);
      if (job->rows == 1 || (job->from_stride == job->row_bytes && job->to_stride == job->row_bytes)) {
        activity.host = reinterpret_cast<std::uintptr_t>(job->from);
        std::memcpy(job->to, job->from, job->row_bytes * job->rows);
      } else {
        for (std::size_t row = 0; row < job->rows; ++row) {
          activity.host = reinterpret_cast<std::uintptr_t>(job->from + row * job->from_stride);
          std::memcpy(job->to + row * job->to_stride, job->from + row * job->from_stride, job->row_bytes);
        }
      }
    }
    const auto elapsed = std::chrono::steady_clock::now() - started;
    bytes_.fetch_add(job->row_bytes * job->rows, std::memory_order_relaxed);
    busy_nanoseconds_.fetch_add(
        static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(elapsed).count()),
        std::memory_order_relaxed);
    {
      std::lock_guard lock(mutex_);
      job->done = true; // the waiter may destroy it from here on
    }
    finished_.notify_all();
  }
}

} // namespace gpuss
