declare module 'jarvis:theme.css';
