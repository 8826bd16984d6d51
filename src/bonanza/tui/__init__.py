"""``bonanza play``: Klondike in the terminal, built on Textual."""
