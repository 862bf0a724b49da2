// Tailwind CSS 4 for the console (app/(console)/console.css); the /docs pages keep their own CSS.
export default {
  plugins: { '@tailwindcss/postcss': {} },
};
