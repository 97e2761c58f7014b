command: javac -d out Calc.java
version: javac 17.0.15
exit: 1
