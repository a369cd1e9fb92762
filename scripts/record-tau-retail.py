"""Records what tau-bench's own retail tools answer to every test task's gold actions, for the port's tests.

Usage: python3 scripts/record-tau-retail.py <tau-bench checkout or its retail tools folder> > data/tau-retail/gold-results.json

Runs each task's gold actions in order on fresh data with the Python tools and writes, per task, each action's
result and the records the actions changed (users, orders, products that differ from the data as loaded).
"""

import copy
import importlib
import json
import os
import sys
import tempfile
import types

source = sys.argv[1]
if os.path.isdir(os.path.join(source, "tau_bench")):
    source = os.path.join(source, "tau_bench", "envs", "retail", "tools")
data_dir = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "data", "tau-retail")

# The tools import `tau_bench.envs.tool.Tool`; a stub is all they need.
for name in ["tau_bench", "tau_bench.envs", "tau_bench.envs.retail"]:
    sys.modules[name] = types.ModuleType(name)
    sys.modules[name].__path__ = []
tool_module = types.ModuleType("tau_bench.envs.tool")
tool_module.Tool = type("Tool", (), {})
sys.modules["tau_bench.envs.tool"] = tool_module
package = types.ModuleType("tau_bench.envs.retail.tools")
package.__path__ = [source]
sys.modules["tau_bench.envs.retail.tools"] = package
tools = importlib.import_module("tau_bench.envs.retail.tools.__init__")
tools_map = {tool.get_info()["function"]["name"]: tool for tool in tools.ALL_TOOLS}


def load(name):
    with open(os.path.join(data_dir, name)) as file:
        return json.load(file)


initial = {"users": load("users.json"), "orders": load("orders.json"), "products": load("products.json")}
tasks = load("tasks_test.json")
recorded = []
for task in tasks:
    data = copy.deepcopy(initial)
    results = []
    for action in task["actions"]:
        try:
            results.append(tools_map[action["name"]].invoke(data=data, **action["kwargs"]))
        except Exception as error:
            results.append(f"Error: {error}")
    changed = {
        table: {key: value for key, value in data[table].items() if initial[table].get(key) != value}
        for table in data
    }
    recorded.append({"results": results, "changed": changed})
json.dump(recorded, sys.stdout)
