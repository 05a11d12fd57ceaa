// Writes the replay page of a record with hostile text in place of its
// agents, as if a record had slipped past the reader: markup, scripts, a
// dialog, terminal controls. The browser test (browser.sh) opens it and
// checks that none of it runs and that the page still steps.
//   canasta_hostile_page RECORD.jsonl OUT.html
#include <fstream>
#include <iostream>
#include <sstream>

#include "canasta/record.h"
#include "canasta/replay.h"
#include "table.h"

int main(int argc, char** argv) {
  if (argc != 3) {
    std::cerr << "usage: canasta_hostile_page RECORD.jsonl OUT.html\n";
    return 2;
  }
  std::ifstream in(argv[1]);
  std::string line, error;
  canasta::cli::ShownDeal d;
  d.line = 1;
  if (!std::getline(in, line) || !canasta::parse_record(line, d.record, error) ||
      !canasta::replay_states(d.record, d.states, error)) {
    std::cerr << argv[1] << ": " << error << "\n";
    return 2;
  }
  const char* hostile[] = {
      R"x(<img src=x onerror="document.body.dataset.pwned='img';document.body.append(Object.assign(document.createElement('h1'),{id:'injected'}))">)x",
      R"x(</script><script>document.body.dataset.pwned='script'</script><h1 id="injected">INJECTED</h1>)x",
      R"x("><svg onload="alert(1)"><img src=x onerror=alert(2)>)x",
      "evil\x1b[2J\x1b]0;owned\x07 \xe2\x80\xae<!-- &amp; -->",
      "<iframe srcdoc=\"<script>parent.document.body.dataset.pwned='iframe'</script>\"></iframe>",
      "<a href=\"javascript:alert(3)\" id=\"injected\">x</a>",
  };
  d.record.agents.clear();
  for (int seat = 0; seat < d.record.rules.players; ++seat) d.record.agents.emplace_back(hostile[seat % 6]);
  std::ofstream(argv[2]) << canasta::cli::replay_page({d});
  return 0;
}
