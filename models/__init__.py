"""Local language models: the embedded default, any GGUF file, the llama.cpp client. Qt-free."""
