// What the server put in the page (its page-data block, read once): the player's data,
// and the words and choices the page takes from the server instead of keeping copies
// (``words``: the games offered, the rules and settings it starts from, Vegas's passes,
// the wording of "still winnable?").

function read() {
  try {
    const data = JSON.parse(document.getElementById("page-data").textContent);
    return data && typeof data === "object" ? data : {};
  } catch {
    // the page came without its data: the API is asked
    return {};
  }
}

/** The page's data block, as the server made it. */
export const pageData = read();

/** The server's words and choices (``web/page_words.py``). */
export const words = pageData.words ?? {};
