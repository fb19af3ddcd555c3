// mpi_stress: random tasks over distributed data, under mpirun, compared
// with a sequential run of the same bodies (docs/mpi.md, docs/testing.md).
//
//   mpirun -np N mpi_stress [--seed S] [--tasks T]
//
// Every rank generates the same random program from the seed, as a
// distributed GPUSs program must: blocks of one array with random owners,
// strided column blocks of a matrix (sent with MPI vector types), tasks of
// one to three accesses (whole data, parts of them, or a run of whole blocks
// read at once), in/out/inout, some placed on a random rank
// (css_mpi_task_rank), some slow. A sequential shadow runs every body at its
// call. At random barriers each rank's owned bytes must equal the shadow; at
// random waits on, every rank's copy of the datum; at random points a block
// moves to another owner (css_mpi_gather to it, then css_mpi_owner). At the
// end every rank checks what it owns, and rank 0 gathers everything and
// checks it all. Prints one line per rank, "mpi-stress: rank R/N ... PASS"
// (or FAIL with the first difference), and exits 1 on a difference.
//
// Bodies fold every value they read into a seed and write functions of it,
// so a task that ran before its inputs arrived, a stale cached copy or a
// message matched to the wrong datum changes the final bytes.
#include "gpuss.h"
#include "gpuss_mpi.h"

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <thread>
#include <vector>

namespace {

constexpr std::size_t kBlock = 64;       // uint32 per block of the array
constexpr std::size_t kBlocks = 24;      // blocks of the array
constexpr std::size_t kRows = 12;        // rows of the matrix
constexpr std::size_t kColumnBlock = 8;  // columns per column block
constexpr std::size_t kColumnBlocks = 6; // column blocks of the matrix
constexpr std::size_t kColumns = kColumnBlock * kColumnBlocks;

std::uint32_t mix(std::uint32_t x) {
  x ^= x >> 16;
  x *= 0x7feb352dU;
  x ^= x >> 15;
  x *= 0x846ca68bU;
  x ^= x >> 16;
  return x;
}

struct BodyArgs {
  std::uint32_t id;
  std::uint32_t delay_us;
};

template <class F> void for_each_element(const css_region &shape, void *base, F &&visit) {
  const std::size_t columns = shape.row_bytes / sizeof(std::uint32_t);
  std::uint32_t k = 0;
  for (std::size_t r = 0; r < shape.rows; ++r) {
    auto *row = reinterpret_cast<std::uint32_t *>(static_cast<char *>(base) + r * shape.stride);
    for (std::size_t c = 0; c < columns; ++c)
      visit(row[c], k++);
  }
}

// The same body for the tasks and for the sequential shadow.
void body(void *packed, const css_task_env *env) {
  BodyArgs args;
  std::memcpy(&args, packed, sizeof args);
  if (args.delay_us) std::this_thread::sleep_for(std::chrono::microseconds(args.delay_us));
  std::uint32_t seed = mix(args.id + 1);
  for (std::uint32_t i = 0; i < env->num_accesses; ++i)
    if (env->accesses[i].direction != CSS_OUT)
      for_each_element(env->accesses[i].region, env->addresses[i],
                       [&](std::uint32_t &v, std::uint32_t) { seed = seed * 31 + v; });
  for (std::uint32_t i = 0; i < env->num_accesses; ++i) {
    if (env->accesses[i].direction == CSS_OUT)
      for_each_element(env->accesses[i].region, env->addresses[i], [&](std::uint32_t &v, std::uint32_t k) {
        v = mix(seed ^ (k * 0x9e3779b9U) ^ args.id);
      });
    else if (env->accesses[i].direction == CSS_INOUT)
      for_each_element(env->accesses[i].region, env->addresses[i],
                       [&](std::uint32_t &v, std::uint32_t k) { v = v * 31 + args.id + seed + k; });
  }
}

// Two copies of the data: the distributed one and the sequential shadow.
struct Data {
  std::vector<std::uint32_t> array = std::vector<std::uint32_t>(kBlock * kBlocks);
  std::vector<std::uint32_t> matrix = std::vector<std::uint32_t>(kRows * kColumns);

  css_region block(std::size_t b, std::size_t first = 0, std::size_t count = kBlock) {
    return css_contiguous(array.data() + b * kBlock + first, count * sizeof(std::uint32_t));
  }
  css_region blocks(std::size_t b, std::size_t count) {
    return css_contiguous(array.data() + b * kBlock, count * kBlock * sizeof(std::uint32_t));
  }
  // Column block j, rows [row, row + rows).
  css_region column_block(std::size_t j, std::size_t row = 0, std::size_t rows = kRows) {
    return css_region{matrix.data() + row * kColumns + j * kColumnBlock, kColumnBlock * sizeof(std::uint32_t),
                      rows, kColumns * sizeof(std::uint32_t)};
  }
};

// A region's place in the other copy of the data.
css_region rebase(const css_region &region, const Data &from, Data &to) {
  auto *base = static_cast<const std::uint32_t *>(region.base);
  css_region moved = region;
  if (base >= from.array.data() && base < from.array.data() + from.array.size())
    moved.base = to.array.data() + (base - from.array.data());
  else
    moved.base = to.matrix.data() + (base - from.matrix.data());
  return moved;
}

bool same_bytes(const css_region &region, const Data &data, const Data &shadow, std::string &where) {
  css_region other = rebase(region, data, const_cast<Data &>(shadow));
  for (std::size_t r = 0; r < region.rows; ++r) {
    const char *a = static_cast<const char *>(region.base) + r * region.stride;
    const char *b = static_cast<const char *>(other.base) + r * other.stride;
    if (std::memcmp(a, b, region.row_bytes) != 0) {
      where = "row " + std::to_string(r);
      return false;
    }
  }
  return true;
}

} // namespace

int main(int argc, char **argv) {
  std::uint64_t seed = 1;
  int tasks = 400;
  for (int a = 1; a < argc; ++a) {
    if (std::strcmp(argv[a], "--seed") == 0 && a + 1 < argc)
      seed = std::strtoull(argv[++a], nullptr, 10);
    else if (std::strcmp(argv[a], "--tasks") == 0 && a + 1 < argc)
      tasks = std::atoi(argv[++a]);
    else {
      std::fprintf(stderr, "usage: mpi_stress [--seed S] [--tasks T]\n");
      return 2;
    }
  }
  const int size = css_mpi_init(), rank = css_mpi_rank();
  std::mt19937_64 random(seed); // the same on every rank
  auto below = [&](std::uint64_t n) { return static_cast<std::size_t>(random() % n); };

  Data data, shadow;
  for (std::size_t e = 0; e < data.array.size(); ++e)
    data.array[e] = shadow.array[e] = static_cast<std::uint32_t>(e * 2654435761U);
  for (std::size_t e = 0; e < data.matrix.size(); ++e)
    data.matrix[e] = shadow.matrix[e] = static_cast<std::uint32_t>(e * 40503U + 7);

  // The distribution: every block and column block gets a random owner.
  std::vector<int> block_owner(kBlocks), column_owner(kColumnBlocks);
  for (std::size_t b = 0; b < kBlocks; ++b) {
    block_owner[b] = static_cast<int>(below(static_cast<std::uint64_t>(size)));
    css_mpi_owner(data.array.data() + b * kBlock, kBlock * sizeof(std::uint32_t), block_owner[b]);
  }
  for (std::size_t j = 0; j < kColumnBlocks; ++j) {
    column_owner[j] = static_cast<int>(below(static_cast<std::uint64_t>(size)));
    css_region region = data.column_block(j);
    css_mpi_owner_region(&region, column_owner[j]);
  }

  // Only the owner's copy is the value: the others are garbage, so that a
  // task that reads a datum its rank did not receive computes garbage.
  for (std::size_t b = 0; b < kBlocks; ++b)
    if (block_owner[b] != rank)
      std::memset(data.array.data() + b * kBlock, 0xab, kBlock * sizeof(std::uint32_t));
  for (std::size_t j = 0; j < kColumnBlocks; ++j)
    if (column_owner[j] != rank)
      for (std::size_t r = 0; r < kRows; ++r)
        std::memset(data.matrix.data() + r * kColumns + j * kColumnBlock, 0xab,
                    kColumnBlock * sizeof(std::uint32_t));

  int checks = 0;
  std::string failure;
  auto check_owned = [&](const char *when, int step) {
    std::string where;
    for (std::size_t b = 0; b < kBlocks && failure.empty(); ++b)
      if (block_owner[b] == rank && !same_bytes(data.block(b), data, shadow, where))
        failure =
            std::string(when) + " " + std::to_string(step) + ": block " + std::to_string(b) + " " + where;
    for (std::size_t j = 0; j < kColumnBlocks && failure.empty(); ++j)
      if (column_owner[j] == rank && !same_bytes(data.column_block(j), data, shadow, where))
        failure = std::string(when) + " " + std::to_string(step) + ": column block " + std::to_string(j) +
                  " " + where;
    ++checks;
  };

  for (int id = 0; id < tasks; ++id) {
    // One to three accesses to distinct data.
    struct Access {
      css_region region;
      css_direction direction;
    };
    std::vector<Access> accesses;
    std::vector<bool> taken(kBlocks + kColumnBlocks, false); // data numbers: blocks, then column blocks
    const std::size_t count = 1 + below(3);
    for (std::size_t n = 0; n < count; ++n) {
      const bool column = below(4) == 0;
      const std::size_t datum = column ? kBlocks + below(kColumnBlocks) : below(kBlocks);
      const std::size_t span = !column && below(8) == 0 && datum + 3 <= kBlocks ? 3 : 1; // a run of blocks
      bool clash = false;
      for (std::size_t d = datum; d < datum + span; ++d)
        clash = clash || taken[d];
      if (clash) continue;
      for (std::size_t d = datum; d < datum + span; ++d)
        taken[d] = true;
      const bool run_of_blocks = span > 1;
      Access access;
      const unsigned roll = static_cast<unsigned>(below(10));
      access.direction = roll < 4 ? CSS_IN : roll < 7 ? CSS_INOUT : CSS_OUT;
      if (run_of_blocks) {
        access.region = data.blocks(datum, 3);
        access.direction = CSS_IN; // data of up to three owners, read together
      } else if (column) {
        const std::size_t j = datum - kBlocks;
        const std::size_t row = below(2) ? 0 : below(kRows);
        access.region = data.column_block(j, row, row == 0 ? kRows : 1 + below(kRows - row));
      } else {
        const std::size_t first = below(2) ? 0 : below(kBlock);
        access.region = data.block(datum, first, first == 0 ? kBlock : 1 + below(kBlock - first));
      }
      accesses.push_back(access);
    }
    // Written data of two owners need a placement.
    int writer_owner = -1;
    bool two_owners = false;
    for (const Access &access : accesses) {
      if (access.direction == CSS_IN) continue;
      auto *base = static_cast<std::uint32_t *>(access.region.base);
      int owner =
          base >= data.array.data() && base < data.array.data() + data.array.size()
              ? block_owner[static_cast<std::size_t>(base - data.array.data()) / kBlock]
              : column_owner[(static_cast<std::size_t>(base - data.matrix.data()) % kColumns) / kColumnBlock];
      two_owners = two_owners || (writer_owner >= 0 && owner != writer_owner);
      writer_owner = owner;
    }
    if (two_owners || below(10) == 0)
      css_mpi_task_rank(static_cast<int>(below(static_cast<std::uint64_t>(size))));

    BodyArgs args{static_cast<std::uint32_t>(id),
                  below(20) == 0 ? static_cast<std::uint32_t>(200 + below(800)) : 0};
    std::vector<css_access> submitted, sequential;
    for (const Access &access : accesses) {
      submitted.push_back(css_access{access.region, static_cast<std::uint32_t>(access.direction), 0, 0});
      sequential.push_back(css_access{rebase(access.region, data, shadow),
                                      static_cast<std::uint32_t>(access.direction), 0, 0});
    }
    css_task_desc desc{
        GPUSS_ABI_VERSION, CSS_DEVICE_SMP, 0,       static_cast<std::uint32_t>(submitted.size()),
        submitted.data(),  body,           &args,   sizeof args,
        "stress",          __FILE__,       __LINE__};
    css_submit(&desc);
    std::vector<void *> addresses;
    for (const css_access &access : sequential)
      addresses.push_back(access.region.base);
    css_task_env env{addresses.data(),
                     sequential.data(),
                     static_cast<std::uint32_t>(sequential.size()),
                     CSS_DEVICE_SMP,
                     -1,
                     nullptr,
                     nullptr};
    body(&args, &env);

    const std::size_t event = below(1000);
    if (event < 15) {
      css_barrier();
      check_owned("barrier after task", id);
    } else if (event < 30) {
      // wait on: every rank's copy is current.
      const bool column = below(3) == 0;
      css_region region = column ? data.column_block(below(kColumnBlocks)) : data.block(below(kBlocks));
      css_wait_on(&region, 1);
      std::string where;
      if (failure.empty() && !same_bytes(region, data, shadow, where))
        failure = "wait on after task " + std::to_string(id) + ": " + where;
      ++checks;
    } else if (event < 40) {
      // A block moves: its value to the new owner, then the declaration.
      const std::size_t b = below(kBlocks);
      const int owner = static_cast<int>(below(static_cast<std::uint64_t>(size)));
      css_mpi_gather(data.array.data() + b * kBlock, kBlock * sizeof(std::uint32_t), owner);
      css_mpi_owner(data.array.data() + b * kBlock, kBlock * sizeof(std::uint32_t), owner);
      block_owner[b] = owner;
    }
  }
  css_barrier();
  check_owned("final barrier", tasks);
  // Rank 0 gathers everything.
  css_mpi_gather(data.array.data(), data.array.size() * sizeof(std::uint32_t), 0);
  css_mpi_gather(data.matrix.data(), data.matrix.size() * sizeof(std::uint32_t), 0);
  if (rank == 0 && failure.empty()) {
    if (std::memcmp(data.array.data(), shadow.array.data(), data.array.size() * sizeof(std::uint32_t)) != 0 ||
        std::memcmp(data.matrix.data(), shadow.matrix.data(), data.matrix.size() * sizeof(std::uint32_t)) !=
            0)
      failure = "gathered on rank 0: the data differ from the sequential run";
    ++checks;
  }
  css_mpi_counters counters{};
  css_mpi_get_counters(&counters);
  std::printf("mpi-stress: rank %d/%d seed %llu tasks %d ran %llu checks %d sends %llu receives %llu %s%s\n",
              rank, size, static_cast<unsigned long long>(seed), tasks,
              static_cast<unsigned long long>(counters.tasks_run), checks,
              static_cast<unsigned long long>(counters.sends),
              static_cast<unsigned long long>(counters.receives),
              failure.empty() ? "PASS" : "FAIL: ", failure.c_str());
  std::fflush(stdout);
  css_finish();
  return failure.empty() ? 0 : 1;
}
