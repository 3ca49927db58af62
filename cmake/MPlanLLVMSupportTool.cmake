# mplan_add_llvm_support_tool(NAME SOURCES...): an executable over the
# planner library that uses llvm::cl and llvm::raw_ostream from LLVMSupport
# (Debian ships it inside libLLVM.so); not built without LLVM.
function(mplan_add_llvm_support_tool name)
  if(NOT LLVM_FOUND)
    find_package(LLVM CONFIG QUIET)
  endif()
  if(NOT LLVM_FOUND)
    message(STATUS "${name}: LLVM not found, not building it")
    return()
  endif()
  add_executable(${name} ${ARGN})
  target_include_directories(${name} SYSTEM PRIVATE ${LLVM_INCLUDE_DIRS})
  if(LLVM_LINK_LLVM_DYLIB)
    target_link_libraries(${name} PRIVATE MPlanSupport LLVM)
  else()
    target_link_libraries(${name} PRIVATE MPlanSupport LLVMSupport)
  endif()
endfunction()
