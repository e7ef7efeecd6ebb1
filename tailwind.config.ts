import type { Config } from "tailwindcss";

export default {
  content: ["./app/**/*.{ts,tsx}"],
  theme: {
    extend: {
      colors: {
        brand: {
          50: "#eef5ff",
          100: "#d9e8ff",
          500: "#2f6fed",
          600: "#1f5ad6",
          700: "#1a48ab",
          900: "#0f2a63",
        },
      },
    },
  },
  plugins: [],
} satisfies Config;
