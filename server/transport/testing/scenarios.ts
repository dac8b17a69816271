// Scenario files the server tests play (written into the test server's scenario folder).
export const TEST_SCENARIOS: Record<string, string> = {
  "10-hello.yaml": `name: hello
match: "hello"
turns:
  - text: "Hi there, nice to meet you."
`,
  "20-write.yaml": `name: write
match: "write"
turns:
  - text: "Writing the note."
    tool_calls:
      - { name: write_file, input: { path: note.txt, content: "from the model" } }
  - text: "The note is written."
`,
  "30-sleep.yaml": `name: sleep
match: "sleep"
turns:
  - tool_calls:
      - { name: run_command, input: { command: "sleep 600" } }
  - text: "never reached while sleeping"
`,
  "40-review.yaml": `name: review
match: "review"
turns:
  - text: "Loading the review skill."
    tool_calls:
      - { name: load_skill, input: { name: review } }
  - tool_calls:
      - { name: read_file, input: { path: README.md } }
  - text: "Findings: none."
`,
};
