// dash::bp::make_spill_store (dash/bp/SpillStore.h): the block layer's SpillStore interface
// over the unit's BlockStore.
#include <dash/bp/BlockStore.h>
#include <dash/bp/SpillStore.h>

#include <memory>
#include <string>
#include <utility>

namespace dash {
namespace bp {

namespace {

// The block layer's SpillStore over a BlockStore.
class BlockSpillStore : public SpillStore {
 public:
  explicit BlockSpillStore(const std::string& name) : store_(name) {}
  void put(std::uint64_t key, Bytes bytes) override { store_.put(key, std::move(bytes)); }
  void prefetch(std::uint64_t key) override { store_.prefetch(key); }
  Bytes take(std::uint64_t key) override { return store_.take(key); }
  Bytes read(std::uint64_t key, bool& kept) override { return store_.read(key, kept); }
  bool put_kept(std::uint64_t key) override { return store_.put_kept(key); }
  void recycle(Bytes bytes) override { store_.recycle(std::move(bytes)); }
  void cancel_prefetch(std::uint64_t key) override { store_.cancel_prefetch(key); }
  Bytes buffer(std::size_t n) override { return store_.buffer(n); }
  void erase(std::uint64_t key) override { store_.erase(key); }
  void flush() override { store_.flush(); }
  SpillCounters counters() const override {
    const StoreStats s = store_.stats();
    return SpillCounters{s.bytes_written, s.bytes_read};
  }

 private:
  BlockStore store_;
};

}  // namespace

std::unique_ptr<SpillStore> make_spill_store(const std::string& name) {
  return std::make_unique<BlockSpillStore>(name);
}

}  // namespace bp
}  // namespace dash
