#include "core/role.h"

#include <gtest/gtest.h>

namespace dfbench::core {
namespace {

TEST(Role, NamesAreTheFileFormat) {
  EXPECT_EQ(Role::Server().Name(), "server");
  EXPECT_EQ(Role::Client().Name(), "client");
  EXPECT_EQ(Role::Client(1).Name(), "client-2");
  EXPECT_EQ(Role::Replica(0).Name(), "replica-0");
  EXPECT_EQ(Role::Replica(12).Name(), "replica-12");
  EXPECT_EQ(Role::Local().Name(), "local");
  EXPECT_EQ(Role().Name(), "server");
}

TEST(Role, ParseReadsEveryNameBack) {
  for (const Role role : {Role::Server(), Role::Client(), Role::Client(1), Role::Client(15),
                          Role::Replica(0), Role::Replica(3), Role::Local()}) {
    EXPECT_EQ(Role::Parse(role.Name()), role) << role.Name();
  }
}

TEST(Role, ParseRefusesOtherWords) {
  for (const char* word : {"", "servers", "client-", "client-0", "client-1", "client-02", "replica",
                           "replica-", "replica--1", "replica-+1", "replica-01", "replica-1x",
                           "replica-99999999999", "Server", "clients-2"}) {
    EXPECT_EQ(Role::Parse(word), std::nullopt) << word;
  }
}

TEST(Role, KindAndIndex) {
  EXPECT_TRUE(Role::Client(2).IsClient());
  EXPECT_EQ(Role::Client(2).index(), 2);
  EXPECT_TRUE(Role::Replica(1).IsReplica());
  EXPECT_FALSE(Role::Server().IsClient());
  EXPECT_EQ(Role::Local().kind(), Role::Kind::kLocal);
  EXPECT_NE(Role::Replica(0), Role::Replica(1));
}

}  // namespace
}  // namespace dfbench::core
