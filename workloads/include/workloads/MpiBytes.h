// Shared workload (workloads/MpiBytes.h), used by examples/io-bench and bench/io (their MPI-IO
// baselines). MPI counts are ints: a buffer of more than 2^31 - 1 bytes cannot be passed as
// MPI_BYTE with a count. MpiBytes gives a (datatype, count) pair for any number of bytes, to pass
// in one call: MPI_BYTE x n up to INT_MAX, else one derived type of n bytes (1 GiB blocks and the
// rest).
//   MpiBytes b(n);
//   MPI_File_write_at_all(f, offset, data, b.count, b.type, MPI_STATUS_IGNORE);
#ifndef WORKLOADS__MPIBYTES_H_
#define WORKLOADS__MPIBYTES_H_

#include <mpi.h>

#include <climits>
#include <cstdint>

class MpiBytes {
 public:
  // The pair for n bytes: local (two type constructors beyond INT_MAX bytes).
  explicit MpiBytes(std::uint64_t n) {
    if (n <= std::uint64_t(INT_MAX)) {
      count = int(n);
      return;
    }
    const std::uint64_t gib = std::uint64_t(1) << 30, q = n / gib, r = n % gib;
    MPI_Datatype block;
    MPI_Type_contiguous(int(gib), MPI_BYTE, &block);
    int lengths[2] = {int(q), int(r)};
    MPI_Aint displacements[2] = {0, MPI_Aint(q * gib)};
    MPI_Datatype types[2] = {block, MPI_BYTE};
    MPI_Type_create_struct(r > 0 ? 2 : 1, lengths, displacements, types, &type);
    MPI_Type_commit(&type);
    MPI_Type_free(&block);
    count = 1;
    owned_ = true;
  }
  ~MpiBytes() {
    if (owned_) MPI_Type_free(&type);
  }
  MpiBytes(const MpiBytes&) = delete;
  MpiBytes& operator=(const MpiBytes&) = delete;

  MPI_Datatype type = MPI_BYTE;
  int count = 0;

 private:
  bool owned_ = false;
};

#endif  // WORKLOADS__MPIBYTES_H_
