// Helpers shared by the C++ unit tests.
#pragma once

#include <gtest/gtest.h>

#include <exception>
#include <string>

// The exception's message when `f` throws E; fails the test otherwise.
template <class E, class F>
std::string message_of(F&& f) {
  try {
    f();
  } catch (const E& e) {
    return e.what();
  } catch (const std::exception& e) {
    ADD_FAILURE() << "threw the wrong type: " << e.what();
    return {};
  }
  ADD_FAILURE() << "did not throw";
  return {};
}
