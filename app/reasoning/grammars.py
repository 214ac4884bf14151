"""GBNF grammars (llama.cpp) that constrain a reply's shape while the model writes it.

A line may hold anything but a backtick, so the only way to end the reply is the closing fence;
after it the grammar is complete and the model can only stop.
"""

ONE_PYTHON_BLOCK = r"""
root ::= "```python\n" line+ "```"
line ::= [^`\n]* "\n"
"""

# PoT reads `ans`, so the block must assign it at the start of some line.
PYTHON_BLOCK_WITH_ANS = r"""
root ::= "```python\n" line* ans-line line* "```"
ans-line ::= "ans" [ \t]* "=" [^`\n]* "\n"
line ::= [^`\n]* "\n"
"""

# Chain of Code's emulation replies: one JSON object, nothing else.
JSON_OBJECT = r"""
root ::= object
value ::= object | array | string | number | "true" | "false" | "null"
object ::= "{" ws ( string ws ":" ws value ws ( "," ws string ws ":" ws value ws )* )? "}"
array ::= "[" ws ( value ws ( "," ws value ws )* )? "]"
string ::= "\"" ( [^"\\\x7F\x00-\x1F] | "\\" ["\\/bfnrt] )* "\""
number ::= "-"? [0-9]+ ( "." [0-9]+ )? ( [eE] [-+]? [0-9]+ )?
ws ::= [ \t\n]?
"""
