// Reduction operations of the program's own (dart_op_create, dart_op_destroy): a (min, max)
// struct of a custom type reduced with a plain function and with a lambda reached through the
// user data, many elements per call, a non-commutative operator combined in unit order (2 x 2
// matrix products), reduce to every root and iallreduce, on DART_TEAM_ALL and on a team whose
// unit order is reversed; ids reused after destroy; bad input refused with DART_ERR_INVAL.
#include <dart/dart.h>

#include <array>
#include <cstdint>
#include <vector>

#include "mpi_test.h"

namespace {

int Me() { return dash_test::myid(); }
int N() { return dash_test::nunits(); }

struct MinMax {
  float min, max;
};

void minmax_fn(const void* in, void* inout, size_t len, void* /*user_data*/) {
  const MinMax* a = static_cast<const MinMax*>(in);
  MinMax* b = static_cast<MinMax*>(inout);
  for (size_t i = 0; i < len; ++i) {
    if (a[i].min < b[i].min) b[i].min = a[i].min;
    if (a[i].max > b[i].max) b[i].max = a[i].max;
  }
}

// Calls the functor F that user_data points to on every element pair.
template <class F>
void call_functor(const void* in, void* inout, size_t len, void* user_data) {
  F& f = *static_cast<F*>(user_data);
  const MinMax* a = static_cast<const MinMax*>(in);
  MinMax* b = static_cast<MinMax*>(inout);
  for (size_t i = 0; i < len; ++i) b[i] = f(a[i], b[i]);
}

// A 2 x 2 integer matrix, row-major; inout = in * inout (in comes from lower units).
using Mat = std::array<std::int64_t, 4>;
Mat multiply(const Mat& x, const Mat& y) {
  return {x[0] * y[0] + x[1] * y[2], x[0] * y[1] + x[1] * y[3], x[2] * y[0] + x[3] * y[2],
          x[2] * y[1] + x[3] * y[3]};
}
void matmul_fn(const void* in, void* inout, size_t len, void*) {
  const Mat* a = static_cast<const Mat*>(in);
  Mat* b = static_cast<Mat*>(inout);
  for (size_t i = 0; i < len; ++i) b[i] = multiply(a[i], b[i]);
}
// Unit u's matrix for element k: none of them commute.
Mat unit_matrix(int u, int k) { return {u + 1, 1 + k, 1, 0}; }

dart_team_t ReversedTeam() {
  dart_team_t team = DART_TEAM_NULL;
  EXPECT_EQ(dart_team_split(DART_TEAM_ALL, 0, -Me(), &team), DART_OK);
  return team;
}

TEST(DartOpCreate, MinMaxOfACustomTypeWithAFunctionAndALambda) {
  dart_datatype_t type = DART_TYPE_UNDEFINED;
  ASSERT_EQ(dart_type_create_custom(sizeof(MinMax), &type), DART_OK);
  dart_operation_t by_function = DART_OP_UNDEFINED, by_lambda = DART_OP_UNDEFINED;
  ASSERT_EQ(dart_op_create(&minmax_fn, nullptr, true, type, true, &by_function), DART_OK);
  EXPECT_GE(static_cast<int>(by_function), static_cast<int>(DART_OP_LAST));
  int calls = 0;
  auto lambda = [&calls](const MinMax& a, const MinMax& b) {
    ++calls;
    return MinMax{a.min < b.min ? a.min : b.min, a.max > b.max ? a.max : b.max};
  };
  ASSERT_EQ(dart_op_create(&call_functor<decltype(lambda)>, &lambda, true, type, true, &by_lambda),
            DART_OK);
  EXPECT_NE(by_function, by_lambda);
  // 300 elements: element k of unit u is (u + k, 1000 - u + k).
  const int n = 300;
  std::vector<MinMax> mine(n), out(n);
  for (int k = 0; k < n; ++k) mine[k] = {float(Me() + k), float(1000 - Me() + k)};
  for (dart_operation_t op : {by_function, by_lambda}) {
    std::fill(out.begin(), out.end(), MinMax{-1, -1});
    ASSERT_EQ(dart_allreduce(mine.data(), out.data(), n, type, op, DART_TEAM_ALL), DART_OK);
    for (int k = 0; k < n; ++k) {
      EXPECT_EQ(out[k].min, float(k)) << "element " << k;
      EXPECT_EQ(out[k].max, float(1000 + k)) << "element " << k;
    }
  }
  // The lambda ran (MPI combines on some units, not necessarily on every one).
  int all_calls = 0;
  ASSERT_EQ(dart_allreduce(&calls, &all_calls, 1, DART_TYPE_INT, DART_OP_SUM, DART_TEAM_ALL),
            DART_OK);
  if (N() > 1) {
    EXPECT_GT(all_calls, 0);
  }
  EXPECT_EQ(dart_op_destroy(&by_function), DART_OK);
  EXPECT_EQ(by_function, DART_OP_UNDEFINED);
  EXPECT_EQ(dart_op_destroy(&by_lambda), DART_OK);
  EXPECT_EQ(dart_type_destroy(&type), DART_OK);
}

TEST(DartOpCreate, NonCommutativeOperatorCombinesInTeamOrder) {
  dart_datatype_t type = DART_TYPE_UNDEFINED;
  ASSERT_EQ(dart_type_create_custom(sizeof(Mat), &type), DART_OK);
  dart_operation_t op = DART_OP_UNDEFINED;
  ASSERT_EQ(dart_op_create(&matmul_fn, nullptr, false, type, false, &op), DART_OK);
  dart_team_t reversed = ReversedTeam();
  for (dart_team_t team : {DART_TEAM_ALL, reversed}) {
    dart_team_unit_t me{-1};
    ASSERT_EQ(dart_team_myid(team, &me), DART_OK);
    // Team unit t is global unit g(t): DART_TEAM_ALL in order, `reversed` backwards.
    auto global_of = [&](int t) { return team == DART_TEAM_ALL ? t : N() - 1 - t; };
    const int n = 3;
    std::vector<Mat> mine(n), out(n), expected(n);
    for (int k = 0; k < n; ++k) {
      mine[k] = unit_matrix(Me(), k);
      expected[k] = unit_matrix(global_of(0), k);
      for (int t = 1; t < N(); ++t)
        expected[k] = multiply(expected[k], unit_matrix(global_of(t), k));
    }
    ASSERT_EQ(dart_allreduce(mine.data(), out.data(), n, type, op, team), DART_OK);
    for (int k = 0; k < n; ++k) EXPECT_EQ(out[k], expected[k]) << "element " << k;
    // To every root: only the root's buffer is written.
    const Mat untouched{-1, -1, -1, -1};
    for (int root = 0; root < N(); ++root) {
      std::vector<Mat> got(n, untouched);
      ASSERT_EQ(dart_reduce(mine.data(), got.data(), n, type, op, DART_TEAM_UNIT_ID(root), team),
                DART_OK);
      for (int k = 0; k < n; ++k)
        EXPECT_EQ(got[k], me.id == root ? expected[k] : untouched) << "root " << root;
    }
    // Non-blocking.
    dart_handle_t handle = DART_HANDLE_NULL;
    std::vector<Mat> late(n);
    ASSERT_EQ(dart_iallreduce(mine.data(), late.data(), n, type, op, team, &handle), DART_OK);
    ASSERT_EQ(dart_wait(&handle), DART_OK);
    for (int k = 0; k < n; ++k) EXPECT_EQ(late[k], expected[k]);
  }
  EXPECT_EQ(dart_team_destroy(&reversed), DART_OK);
  EXPECT_EQ(dart_op_destroy(&op), DART_OK);
  EXPECT_EQ(dart_type_destroy(&type), DART_OK);
}

TEST(DartOpCreate, OperationOutlivesItsTypeAndIdsAreReused) {
  dart_datatype_t type = DART_TYPE_UNDEFINED;
  ASSERT_EQ(dart_type_create_custom(sizeof(MinMax), &type), DART_OK);
  dart_operation_t first = DART_OP_UNDEFINED;
  ASSERT_EQ(dart_op_create(&minmax_fn, nullptr, true, type, true, &first), DART_OK);
  const dart_operation_t first_id = first;
  ASSERT_EQ(dart_type_destroy(&type), DART_OK);
  // A live type of the same size serves the operation made for the destroyed one.
  dart_datatype_t again = DART_TYPE_UNDEFINED;
  ASSERT_EQ(dart_type_create_custom(sizeof(MinMax), &again), DART_OK);
  MinMax in{float(Me()), float(Me())}, out{};
  ASSERT_EQ(dart_allreduce(&in, &out, 1, again, first, DART_TEAM_ALL), DART_OK);
  EXPECT_EQ(out.min, 0.0f);
  EXPECT_EQ(out.max, float(N() - 1));
  ASSERT_EQ(dart_op_destroy(&first), DART_OK);
  dart_operation_t second = DART_OP_UNDEFINED;
  ASSERT_EQ(dart_op_create(&minmax_fn, nullptr, true, again, false, &second), DART_OK);
  EXPECT_EQ(second, first_id);
  EXPECT_EQ(dart_op_destroy(&second), DART_OK);
  EXPECT_EQ(dart_type_destroy(&again), DART_OK);
}

TEST(DartOpCreate, BadInputIsRefused) {
  dart_operation_t op = DART_OP_UNDEFINED;
  EXPECT_EQ(dart_op_create(nullptr, nullptr, true, DART_TYPE_INT, false, &op), DART_ERR_INVAL);
  EXPECT_EQ(dart_op_create(&minmax_fn, nullptr, true, DART_TYPE_INT, false, nullptr),
            DART_ERR_INVAL);
  EXPECT_EQ(dart_op_create(&minmax_fn, nullptr, true, DART_TYPE_UNDEFINED, false, &op),
            DART_ERR_INVAL);
  dart_datatype_t strided = DART_TYPE_UNDEFINED;
  ASSERT_EQ(dart_type_create_strided(DART_TYPE_INT, 4, 2, &strided), DART_OK);
  EXPECT_EQ(dart_op_create(&minmax_fn, nullptr, true, strided, false, &op), DART_ERR_INVAL);
  EXPECT_EQ(dart_type_destroy(&strided), DART_OK);
  // Predefined, never made, or already freed operations cannot be destroyed.
  dart_operation_t sum = DART_OP_SUM;
  EXPECT_EQ(dart_op_destroy(&sum), DART_ERR_INVAL);
  dart_operation_t unknown = static_cast<dart_operation_t>(static_cast<int>(DART_OP_LAST) + 77);
  EXPECT_EQ(dart_op_destroy(&unknown), DART_ERR_INVAL);
  EXPECT_EQ(dart_op_destroy(nullptr), DART_ERR_INVAL);
  // An operation made for 8-byte elements is refused for 4-byte ones (every unit alike, before
  // any communication); a freed one is refused as unknown.
  ASSERT_EQ(dart_op_create(&minmax_fn, nullptr, true, DART_TYPE_DOUBLE, false, &op), DART_OK);
  int in = 1, out = 0;
  EXPECT_EQ(dart_allreduce(&in, &out, 1, DART_TYPE_INT, op, DART_TEAM_ALL), DART_ERR_INVAL);
  const dart_operation_t freed = op;
  EXPECT_EQ(dart_op_destroy(&op), DART_OK);
  EXPECT_EQ(dart_allreduce(&in, &out, 1, DART_TYPE_DOUBLE, freed, DART_TEAM_ALL), DART_ERR_INVAL);
  dart_operation_t again = freed;
  EXPECT_EQ(dart_op_destroy(&again), DART_ERR_INVAL);
}

}  // namespace
